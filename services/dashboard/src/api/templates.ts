import { unwrap, type components } from '@bm/client';
import { useQuery } from '@tanstack/react-query';
import { api } from './client';
import { useRefreshingMutation } from './refreshing-mutation';

export type Template = components['schemas']['Template'];
export type SubmitTemplateRequest = components['schemas']['SubmitTemplateRequest'];

const templatesKey = ['templates'] as const;

/** The account's templates, all statuses, or only the approved ones a send may use. */
export function useTemplates(channelAccountId: string | undefined, status?: 'APPROVED') {
  return useQuery({
    queryKey: [...templatesKey, channelAccountId, status],
    enabled: channelAccountId !== undefined && channelAccountId !== '',
    queryFn: async () =>
      unwrap(
        await api.GET('/api/v1/templates', {
          params: { query: { channel_account_id: channelAccountId, status } },
        }),
      ).templates,
  });
}

/** The account's approved templates, the ones a send may use. */
export const useApprovedTemplates = (channelAccountId: string | undefined) =>
  useTemplates(channelAccountId, 'APPROVED');

export function useSubmitTemplate() {
  return useRefreshingMutation(templatesKey, async (body: SubmitTemplateRequest) =>
    unwrap(await api.POST('/api/v1/templates', { body })),
  );
}

/** Fetches the number's templates from the upstream network again. */
export function useSyncTemplates() {
  return useRefreshingMutation(templatesKey, async (channelAccountId: string) =>
    unwrap(
      await api.POST('/api/v1/channel-accounts/{channelAccountId}/templates/sync', {
        params: { path: { channelAccountId } },
      }),
    ),
  );
}
