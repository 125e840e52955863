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
const endpointsKey = ['webhook-endpoints'] as const;

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
    onSuccess: (settings) => {
      client.setQueryData(settingsKey, settings);
      // The settings are the default endpoint's.
      return refresh(client, endpointsKey);
    },
  });
}

/** Generates (or rotates to) a new signing secret; the answer is the only time it is shown. */
export function useRotateSecret() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => unwrap(await api.POST('/api/v1/webhooks/settings/secret')),
    onSuccess: () => Promise.all([refresh(client, settingsKey), refresh(client, endpointsKey)]),
  });
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

export type WebhookEndpoint = components['schemas']['WebhookEndpoint'];

/** The tenant's endpoints, the default (the settings') first. */
export function useWebhookEndpoints() {
  return useQuery({
    queryKey: endpointsKey,
    queryFn: async () => unwrap(await api.GET('/api/v1/webhooks/endpoints')),
  });
}

/** Adds an endpoint; the answer holds its signing secret, shown this once. */
export function useAddEndpoint() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: { url: string; events: WebhookEvent[] | null; description: string | null }) =>
      unwrap(await api.POST('/api/v1/webhooks/endpoints', { body })),
    onSuccess: () => Promise.all([refresh(client, endpointsKey), refresh(client, settingsKey)]),
  });
}

type EndpointChanges = NonNullable<
  operations['updateWebhookEndpoint']['requestBody']
>['content']['application/json'];

export function useUpdateEndpoint() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, changes }: { id: string; changes: EndpointChanges }) =>
      unwrap(await api.PATCH('/api/v1/webhooks/endpoints/{id}', { params: { path: { id } }, body: changes })),
    onSuccess: () => Promise.all([refresh(client, endpointsKey), refresh(client, settingsKey)]),
  });
}

export function useDeleteEndpoint() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      unwrap(await api.DELETE('/api/v1/webhooks/endpoints/{id}', { params: { path: { id } } })),
    onSuccess: () => Promise.all([refresh(client, endpointsKey), refresh(client, settingsKey)]),
  });
}

/** One endpoint's new signing secret; the answer is the only time it is shown. */
export function useRotateEndpointSecret() {
  return useRefreshingMutation(endpointsKey, async (id: string) =>
    unwrap(await api.POST('/api/v1/webhooks/endpoints/{id}/secret', { params: { path: { id } } })),
  );
}

const refresh = (client: ReturnType<typeof useQueryClient>, queryKey: readonly unknown[]) =>
  client.invalidateQueries({ queryKey });
