import { unwrap, type components } from '@bm/client';
import { useQuery } from '@tanstack/react-query';
import { api } from './client';

export type Template = components['schemas']['Template'];

/** The account's approved templates, the ones a send may use. */
export function useApprovedTemplates(channelAccountId: string | undefined) {
  return useQuery({
    queryKey: ['templates', channelAccountId],
    enabled: channelAccountId !== undefined && channelAccountId !== '',
    queryFn: async () =>
      unwrap(
        await api.GET('/api/v1/templates', {
          params: { query: { channel_account_id: channelAccountId, status: 'APPROVED' } },
        }),
      ).templates,
  });
}
