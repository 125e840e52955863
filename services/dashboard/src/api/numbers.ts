import { unwrap, type components } from '@bm/client';
import { useQuery } from '@tanstack/react-query';
import { api } from './client';

export type ChannelAccount = components['schemas']['ChannelAccountSummary'];

/** The tenant's sending numbers with today's capacity. */
export function useChannelAccounts() {
  return useQuery({
    queryKey: ['channel-accounts'],
    queryFn: async () => unwrap(await api.GET('/api/v1/channel-accounts')).channel_accounts,
  });
}
