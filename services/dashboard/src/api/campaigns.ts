import { unwrap, type components, type operations } from '@bm/client';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from './client';
import { useRefreshingMutation } from './refreshing-mutation';

export type Campaign = components['schemas']['Campaign'];
export type CampaignStatus = Campaign['status'];
export type CampaignPlan = components['schemas']['CampaignPlan'];
export type CampaignCreated = components['schemas']['CampaignCreated'];
export type CreateCampaignRequest = components['schemas']['CreateCampaignRequest'];
export type Recipient = components['schemas']['CampaignRecipientList']['recipients'][number];
export type CampaignListQuery = NonNullable<operations['listCampaigns']['parameters']['query']>;
export type RecipientQuery = NonNullable<operations['listCampaignRecipients']['parameters']['query']>;

const campaignsKey = ['campaigns'] as const;
/** Statuses in which a campaign still moves: its screens poll while one is shown. */
export const LIVE_STATUSES: readonly CampaignStatus[] = ['preparing', 'pending', 'processing', 'throttled'];
const live = (c: Campaign) => LIVE_STATUSES.includes(c.status);

export function useCampaigns(query: CampaignListQuery) {
  return useQuery({
    queryKey: [...campaignsKey, 'list', query],
    queryFn: async () => unwrap(await api.GET('/api/v1/campaigns', { params: { query } })),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.campaigns.some(live) ? 2_000 : false),
  });
}

/** One campaign, polled while it is still moving, so its page shows live progress. */
export function useCampaign(id: string) {
  return useQuery({
    queryKey: [...campaignsKey, 'one', id],
    queryFn: async () => unwrap(await api.GET('/api/v1/campaigns/{id}', { params: { path: { id } } })),
    refetchInterval: (q) => (q.state.data && !live(q.state.data) ? false : 1_000),
  });
}

/**
 * A page of a campaign's recipients. `progress` (the campaign's status and counts, which its page polls) is part
 * of the key, so the page is fetched again whenever the campaign moves, and never left stale after it finishes.
 */
export function useRecipients(id: string, query: RecipientQuery, progress: string) {
  return useQuery({
    queryKey: [...campaignsKey, 'recipients', id, query, progress],
    queryFn: async () =>
      unwrap(await api.GET('/api/v1/campaigns/{id}/recipients', { params: { path: { id }, query } })),
    placeholderData: keepPreviousData,
  });
}

/** The dry run: capacity, parts and dates, opted-out contacts; nothing is created. */
export function useForecast() {
  return useMutation({
    mutationFn: async (body: CreateCampaignRequest) =>
      // One operation answers two shapes (200 plan, 202 created): the caller's query picks which.
      unwrap<CampaignPlan>(
        (await api.POST('/api/v1/campaigns', { params: { query: { dry_run: true } }, body })) as never,
      ),
  });
}

export function useCreateCampaign() {
  return useRefreshingMutation(
    campaignsKey,
    async (input: { body: CreateCampaignRequest; idempotencyKey: string }) =>
      unwrap<CampaignCreated>(
        (await api.POST('/api/v1/campaigns', {
          body: input.body,
          headers: { 'Idempotency-Key': input.idempotencyKey },
        })) as never,
      ),
  );
}

/**
 * What the campaign page can do. `stop` is the console's Cancel of a campaign that is sending (POST …/stop: it
 * ends `cancelled` mid-send); `cancel` is the published cancel of one that has not started.
 */
export type CampaignAction = 'cancel' | 'stop' | 'pause' | 'resume' | 'retry';

export function useCampaignAction() {
  return useRefreshingMutation(
    campaignsKey,
    async ({ id, action }: { id: string; action: CampaignAction }) => {
      const path = { params: { path: { id } } };
      if (action === 'cancel') return unwrap(await api.POST('/api/v1/campaigns/{id}/cancel', path));
      if (action === 'stop') return unwrap(await api.POST('/api/v1/campaigns/{id}/stop', path));
      if (action === 'pause') return unwrap(await api.POST('/api/v1/campaigns/{id}/pause', path));
      if (action === 'resume') return unwrap(await api.POST('/api/v1/campaigns/{id}/resume', path));
      return unwrap(await api.POST('/api/v1/campaigns/{id}/retry', path));
    },
  );
}
