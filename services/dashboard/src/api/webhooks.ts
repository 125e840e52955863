import { unwrap, type components, type operations } from '@bm/client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { useRefreshingMutation } from './refreshing-mutation';

export type WebhookSettings = components['schemas']['WebhookSettings'];
export type WebhookEvent = NonNullable<WebhookSettings['events']>[number];
export type DeliveryList = components['schemas']['WebhookDeliveryList'];
export type Delivery = DeliveryList['deliveries'][number];
export type DeliveryQuery = NonNullable<operations['listWebhookDeliveries']['parameters']['query']>;

/** Every event a webhook can carry, in the order the settings form lists them. */
export const WEBHOOK_EVENTS = [
  'message.status_updated',
  'message.received',
  'campaign.created',
  'campaign.started',
  'campaign.completed',
  'template.submitted',
  'template.status_changed',
  'flow.session_started',
  'flow.session_completed',
  'flow.session_cancelled',
  'account.quality_event',
  'webhook.test',
] as const satisfies readonly WebhookEvent[];
// The list is the OpenAPI document's enum (the client's types): an event it gains and this list lacks fails to compile.
export const EVERY_EVENT_LISTED: [Exclude<WebhookEvent, (typeof WEBHOOK_EVENTS)[number]>] extends [never]
  ? true
  : never = true;

const settingsKey = ['webhook-settings'] as const;
const deliveriesKey = ['webhook-deliveries'] as const;

export function useWebhookSettings() {
  return useQuery({
    queryKey: settingsKey,
    queryFn: async () => unwrap(await api.GET('/api/v1/webhooks/settings')),
  });
}

export function useSaveWebhookSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: { url: string | null; events: WebhookEvent[] | null }) =>
      unwrap(await api.PUT('/api/v1/webhooks/settings', { body })),
    onSuccess: (settings) => client.setQueryData(settingsKey, settings),
  });
}

/** Generates (or rotates to) a new signing secret; the answer is the only time it is shown. */
export function useRotateSecret() {
  return useRefreshingMutation(settingsKey, async () =>
    unwrap(await api.POST('/api/v1/webhooks/settings/secret')),
  );
}

export function useSendTest() {
  return useMutation({
    mutationFn: async () => unwrap(await api.POST('/api/v1/webhooks/test')),
  });
}

/** The health monitor's page of deliveries; polls while any shown delivery is still pending. */
export function useDeliveries(query: DeliveryQuery, options: { pollMs?: number } = {}) {
  return useQuery({
    queryKey: [...deliveriesKey, query],
    queryFn: async () => unwrap(await api.GET('/api/v1/webhooks/deliveries', { params: { query } })),
    placeholderData: keepPreviousData,
    refetchInterval: (q) =>
      options.pollMs ?? (q.state.data?.deliveries.some((d) => d.status === 'pending') ? 2_000 : false),
  });
}

export function useRedeliver() {
  return useRefreshingMutation(deliveriesKey, async (id: string) =>
    unwrap(await api.POST('/api/v1/webhooks/deliveries/{id}/redeliver', { params: { path: { id } } })),
  );
}
