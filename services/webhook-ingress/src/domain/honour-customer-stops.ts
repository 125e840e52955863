import { marketingPreferencesOf, optOutIntent, type CustomerChoiceTime } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { SplitItem } from './inbound-item';
import type { IngressDeps } from './ingress-deps';
import { isObject } from './inbound-item';

/** A customer who stopped marketing, as one webhook tells it. */
export interface CustomerStop {
  phoneNumberId: string;
  /** A phone's digits or a user id. */
  address: string;
  source: 'keyword' | 'marketing_stop';
  /** When they chose it: the campaign service keeps only a customer's latest choice. */
  at: CustomerChoiceTime;
}

// Bodies that cannot hold a stop are answered without being split here (the splitter does it after the answer).
const MAY_HOLD_A_STOP = /user_preferences|stop|unsubscribe|opt\s*out/i;

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The stops among a body's items: a customer's STOP keyword, and a `user_preferences` item saying `stop`. */
export function customerStopsOf(items: readonly SplitItem[]): CustomerStop[] {
  const stops: CustomerStop[] = [];
  for (const item of items) {
    const receivedAt = item.payload.received_at ?? item.payload.occurred_at;
    if (item.routingKey === 'inbound.message') {
      const m = item.payload;
      const address = m.from?.replace(/\D/g, '') || m.from_user_id;
      if (m.phone_number_id && address && optOutIntent(m.text) === 'opt_out') {
        const at = { chosen_at: m.occurred_at, received_at: receivedAt };
        stops.push({ phoneNumberId: m.phone_number_id, address, source: 'keyword', at });
      }
    } else if (item.routingKey === 'inbound.account_update' && item.payload.field === 'user_preferences') {
      const details = item.payload.details;
      const phoneNumberId = isObject(details.metadata) ? text(details.metadata.phone_number_id) : null;
      if (!phoneNumberId) continue;
      for (const p of marketingPreferencesOf(details, item.payload.occurred_at)) {
        if (p.value !== 'stop') continue;
        const at = { chosen_at: p.chosen_at, received_at: receivedAt };
        stops.push({ phoneNumberId, address: (p.phone ?? p.user_id)!, source: 'marketing_stop', at });
      }
    }
  }
  return stops;
}

/**
 * One answer to "may this customer get marketing?" (CONTRACT.md): a customer's stop in a webhook is applied by the
 * campaign service before the upstream gets its 200, so the very next send, single or campaign, honours it. The
 * items still go through the broker as any other (a repeat changes nothing). A stop that cannot be applied now
 * (the campaign service or messaging away) answers 503, which the upstream retries; the body is stored already.
 * A stop whose number names no account, or whose items the splitter isolates, is left to the broker's path.
 */
export async function honourCustomerStops(
  deps: IngressDeps,
  body: { text: string; items: () => readonly SplitItem[] },
): Promise<void> {
  if (!deps.customerStops || !MAY_HOLD_A_STOP.test(body.text)) return;
  let stops: CustomerStop[];
  try {
    stops = customerStopsOf(body.items());
  } catch {
    return;
  }
  try {
    for (const stop of stops) {
      const owner = await deps.accounts.ownerOf(stop.phoneNumberId);
      if (owner) await deps.customerStops.stop(owner.tenantId, stop);
    }
  } catch (err) {
    deps.logger.warn("a customer's stop could not be applied before the answer; the upstream will retry", {
      error: (err as Error).message,
    });
    throw new AppError('SERVICE_UNAVAILABLE');
  }
}
