import request from 'supertest';
import { waitFor } from '@bm/platform/testing';
import { asTenant } from './dispatcher';

export interface MonitoredDelivery {
  delivery_id: string;
  event_id: string;
  event: string;
  status: string;
  created_at: string;
  attempts: Array<{
    attempt: number;
    at: string;
    duration_ms: number | null;
    http_status: number | null;
    error: string | null;
    response_excerpt: string | null;
  }>;
}

/** The tenant's health monitor page. */
export async function monitor(url: string, tenantId: number, query: Record<string, string | number> = {}) {
  const res = await request(url).get('/api/v1/webhooks/deliveries').query(query).set(asTenant(tenantId));
  if (res.status !== 200) throw new Error(`monitor: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as {
    deliveries: MonitoredDelivery[];
    pagination: Record<string, number>;
    endpoint: Record<string, unknown>;
  };
}

/** Waits until the delivery reaches a final status (delivered or failed) and answers it. */
export function settled(url: string, tenantId: number, deliveryId: string, timeoutMs = 15_000) {
  return waitFor(
    async () => {
      const d = (await monitor(url, tenantId)).deliveries.find((x) => x.delivery_id === deliveryId);
      return d !== undefined && d.status !== 'pending' && d;
    },
    { timeoutMs, what: `delivery ${deliveryId} settled` },
  );
}
