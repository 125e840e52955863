import type { components } from '@bm/client';

type Schemas = components['schemas'];
const at = (i: number) => new Date(Date.UTC(2026, 10, 24, 12, 0, 0) - i * 60_000).toISOString();
const ulidOf = (i: number) => `01JB${String(i).padStart(22, '0')}`;
const pagination = (n: number) => ({ current_page: 1, per_page: n, total: n, last_page: 1 });

/** Envelopes of n rows for each list screen, for the render-time measurement on a routed (mocked) network. */
export function listFixtures(n: number): Record<string, unknown> {
  const messages: Schemas['MessageLog'][] = Array.from({ length: n }, (_, i) => ({
    message_log_id: 1_000 + i,
    status: 'delivered',
    to_phone: `1415555${String(i).padStart(4, '0')}`,
    to_user_id: null,
    message_type: 'template',
    provider_message_id: `wamid.${i}`,
    sent_at: at(i),
    delivered_at: at(i),
    read_at: null,
    failed_at: null,
    scheduled_at: null,
    cost_amount: 0.004,
    cost_currency: 'USD',
    error_message: null,
    error_code: null,
    held: false,
    played_at: null,
    pricing: { model: 'PMP', type: 'regular', category: 'utility' },
    created_at: at(i),
    retry_count: 0,
    retry_of_message_log_id: null,
    retried_by_message_log_id: null,
    campaign_id: null,
    channel_account_id: ulidOf(1),
    from_phone: '15550000001',
    content: {
      type: 'template',
      name: 'order_update',
      language: 'en_US',
      components: [{ type: 'body', parameters: [{ type: 'text', text: `Customer ${i}` }] }],
    },
  }));
  const deliveries: Schemas['WebhookDeliveryList']['deliveries'] = Array.from({ length: n }, (_, i) => ({
    delivery_id: ulidOf(i),
    event_id: `evt_${ulidOf(i)}`,
    event: 'message.status_updated',
    status: i % 10 === 0 ? 'failed' : 'delivered',
    created_at: at(i),
    attempts: [
      { attempt: 1, at: at(i), duration_ms: 12, http_status: 200, error: null, response_excerpt: 'ok' },
    ],
    endpoint_id: ulidOf(1),
    url: 'https://example.com/hooks',
    payload: { event: 'message.status_updated', tenant_id: 1, timestamp: at(i), message_log_id: i + 1 },
    message_id: i + 1,
    campaign_id: null,
  }));
  const accounts: Schemas['ChannelAccountSummary'][] = Array.from({ length: n }, (_, i) => ({
    channel_account_id: ulidOf(i),
    phone_number_id: `1${i}`,
    waba_id: `2${i}`,
    business_id: `2${i}`,
    display_phone_number: `1555000${String(i).padStart(4, '0')}`,
    status: 'active',
    tier: 'TIER_1K',
    quality_event: null,
    throughput_per_second: 80,
    webhooks_subscribed: true,
    capacity: { daily_limit: 1000, used_today: i, remaining: 1000 - i },
    created_at: at(i),
  }));
  const keys: Schemas['ApiKeySummary'][] = Array.from({ length: n }, (_, i) => ({
    key_id: ulidOf(i),
    created_at: at(i),
    last_used_at: null,
    revoked_at: null,
    name: null,
    role: null,
  }));
  const ok = (data: unknown) => ({ success: true, data });
  return {
    '/api/v1/messages': ok({ messages, pagination: pagination(n) }),
    '/api/v1/webhooks/deliveries': ok({
      deliveries,
      pagination: pagination(n),
      endpoint: {
        url: 'https://example.com',
        success_rate: 0.9,
        delivered: 90,
        failed: 10,
        pending: 0,
        window_hours: 24,
        last_error: null,
      },
    }),
    '/api/v1/channel-accounts': ok({ channel_accounts: accounts }),
    '/api/v1/api-keys': ok({ api_keys: keys }),
  };
}
