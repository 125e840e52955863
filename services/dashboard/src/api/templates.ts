import { unwrap, type components } from '@bm/client';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from './client';
import { useChannelAccounts } from './numbers';
import { useRefreshingMutation } from './refreshing-mutation';

export type Template = components['schemas']['Template'];
export type SubmitTemplateRequest = components['schemas']['SubmitTemplateRequest'];

const templatesKey = ['templates'] as const;

/** The account's templates, all statuses, or only the approved ones a send may use. */
/** How often a list holding a template under review is read again. */
const PENDING_REVIEW_POLL_MS = 5_000;

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
    // While one waits for the upstream's review, the list is read again, so APPROVED or REJECTED shows by itself.
    refetchInterval: (query) =>
      query.state.data?.some((t) => t.status === 'PENDING') ? PENDING_REVIEW_POLL_MS : false,
  });
}

/** The account's approved templates, the ones a send may use. */
export const useApprovedTemplates = (channelAccountId: string | undefined) =>
  useTemplates(channelAccountId, 'APPROVED');

/** The number to send from and its approved template to send: the first of each until the user picks another. */
export function useTemplatePick() {
  const accounts = useChannelAccounts();
  const [accountId, setAccountId] = useState('');
  const account = accountId || accounts.data?.[0]?.channel_account_id || '';
  const templates = useApprovedTemplates(account || undefined);
  const [templateId, setTemplateId] = useState('');
  const template = templates.data?.find((t) => t.id === templateId) ?? templates.data?.[0];
  return { accounts, account, setAccountId, templates, template, setTemplateId };
}

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
