import { optOutIntent } from '@bm/contracts';
import { AppError } from '@bm/platform';
import type { SplitItem } from './inbound-item';
import type { IngressDeps } from './ingress-deps';
import { isObject, arrayOf } from './inbound-item';

/** A customer who stopped marketing, as one webhook tells it. */
export interface CustomerStop {
  phoneNumberId: string;
  /** A phone's digits or a user id. */
  address: string;
  source: 'keyword' | 'marketing_stop';
}

// Bodies that cannot hold a stop are answered without being split here (the splitter does it after the answer).
const MAY_HOLD_A_STOP = /user_preferences|stop|unsubscribe|opt\s*out/i;

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The stops among a body's items: a customer's STOP keyword, and a `user_preferences` item saying `stop`. */
export function customerStopsOf(items: readonly SplitItem[]): CustomerStop[] {
  const stops: CustomerStop[] = [];
  for (const item of items) {
    if (item.routingKey === 'inbound.message') {
      const m = item.payload;
      const address = m.from?.replace(/\D/g, '') || m.from_user_id;
      if (m.phone_number_id && address && optOutIntent(m.text) === 'opt_out')
        stops.push({ phoneNumberId: m.phone_number_id, address, source: 'keyword' });
    } else if (item.routingKey === 'inbound.account_update' && item.payload.field === 'user_preferences') {
      const details = item.payload.details;
      const phoneNumberId = isObject(details.metadata) ? text(details.metadata.phone_number_id) : null;
      for (const p of arrayOf(details.user_preferences)) {
        if (!isObject(p) || p.category !== 'marketing_messages' || p.value !== 'stop') continue;
        const address = text(p.wa_id)?.replace(/\D/g, '') || text(p.user_id);
        if (phoneNumberId && address) stops.push({ phoneNumberId, address, source: 'marketing_stop' });
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
      if (owner) await deps.customerStops.stop(owner.tenantId, stop.address, stop.source);
    }
  } catch (err) {
    deps.logger.warn("a customer's stop could not be applied before the answer; the upstream will retry", {
      error: (err as Error).message,
    });
    throw new AppError('SERVICE_UNAVAILABLE');
  }
}
