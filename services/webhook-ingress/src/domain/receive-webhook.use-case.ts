import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { INTERNAL_HEADERS } from '@bm/contracts';
import { AppError, newUlid } from '@bm/platform';
import type { InboundRoutingKey } from '@bm/contracts';
import type { ReceiptSplit } from './inbound-event';
import type { IngressDeps } from './ingress-deps';
import { countSkipped, splitParsedBody } from './process-inbound-event.use-case';
import { honourCustomerStops } from './honour-customer-stops';
import { roughItemCount } from './split-webhook';
import { verifySignature } from './verify-signature';

export interface WebhookDelivery {
  rawBody: Buffer;
  signature: string | undefined;
  headers: IncomingHttpHeaders;
  requestId: string | null;
}

// Never stored: credentials, and the signature (its check is recorded as `signed_with`).
const UNSTORED_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  INTERNAL_HEADERS.token,
  'x-hub-signature',
  'x-hub-signature-256',
]);

function storableHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !UNSTORED_HEADERS.has(name)) kept[name] = value;
  }
  return kept;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as text and parsed, if it is UTF-8 JSON; 400 INVALID_JSON otherwise. */
function jsonBody(raw: Buffer): { text: string; parsed: unknown } {
  try {
    const text = utf8.decode(raw);
    return { text, parsed: JSON.parse(text) as unknown };
  } catch {
    throw new AppError('INVALID_JSON');
  }
}

// A larger body is left to the splitter, which takes many bodies' items in one batch after the answer: splitting
// it here would make its 200 wait for its items. The upstream reports one status per call, as a rule.
const SPLIT_ON_RECEIPT_MAX_BYTES = 64 * 1024;
const SPLIT_ON_RECEIPT_MAX_ITEMS = 5;

/**
 * The body split at once, when it is small (a few items) and every item's tenant is known without asking messaging (a number
 * looked up a moment ago): its items then go out in the statement that stores it. Otherwise undefined, and the
 * splitter does it, asking messaging and isolating whatever fails; so does anything unexpected here, since the
 * delivery must be stored whatever its items are.
 */
function splitOnReceipt(
  deps: IngressDeps,
  body: { bytes: number; parsed: unknown },
  receivedAt: Date,
): { split: ReceiptSplit; replacedTexts: number } | undefined {
  if (body.bytes > SPLIT_ON_RECEIPT_MAX_BYTES) return undefined;
  try {
    if (roughItemCount(body.parsed) > SPLIT_ON_RECEIPT_MAX_ITEMS) return undefined;
    const { items, skipped, replacedTexts } = splitParsedBody(body.parsed, receivedAt);
    const owned: ReceiptSplit['items'] = [];
    for (const item of items) {
      const number = item.payload.phone_number_id;
      // Account-level changes name no number: messaging resolves their tenant.
      const owner = number === null ? null : deps.accounts.knownOwner(number);
      if (owner === undefined) return undefined;
      owned.push({ item, tenantId: owner?.tenantId ?? null });
    }
    return { split: { items: owned, skippedCount: skipped.length }, replacedTexts };
  } catch (err) {
    deps.logger.warn('inbound webhook not split on receipt, left to the splitter', {
      error: (err as Error).message,
    });
    return undefined;
  }
}

/**
 * Items whose consumers apply them once however often they come: a status report (a status never moves back, and
 * a repeated one changes nothing) and a customer message (kept once by its message id). These need neither the
 * outbox nor a dedupe key: sent before the answer and confirmed, a crash before the answer gets the body again
 * from the upstream, which retries every webhook not answered 2xx. Account-level items (quality, tier, template
 * status) keep the outbox and their dedupe key: their consumers emit on each.
 */
const SENT_ON_RECEIPT: ReadonlySet<InboundRoutingKey> = new Set(['inbound.status', 'inbound.message']);

// No upstream id comes near this; an item whose key is longer (PostgreSQL's indexes refuse keys over about 2.7 kB,
// and so would its consumer's) takes the outbox path, which isolates it: skipped, with the reason, the rest sent.
const MAX_SENT_KEY_BYTES = 1024;

const sendable = ({ item }: ReceiptSplit['items'][number]) =>
  SENT_ON_RECEIPT.has(item.routingKey) && Buffer.byteLength(item.dedupeKey) <= MAX_SENT_KEY_BYTES;

/** Sends the items of a body split on receipt when all of them may go out twice; true once all are confirmed. */
async function sendOnReceipt(deps: IngressDeps, eventId: string, split: ReceiptSplit): Promise<boolean> {
  if (!split.items.every(sendable)) return false;
  return deps.sender.send(
    split.items.map(({ item, tenantId }) => ({ item, tenantId, inboundEventId: eventId })),
  );
}

/**
 * POST /api/webhooks/channel: checks the signature over the raw bytes (401 and nothing kept when it fails),
 * then stores the delivery in the audit log. Resolves once the row is committed, so a 200 means it is durable,
 * and once a customer's stop in it is applied (honourCustomerStops). Splitting it into items happens here when
 * it can be done safely (splitOnReceipt): its status reports and customer messages are then sent before the row
 * is stored (sendOnReceipt), other items go out through the outbox in the row's statement; afterwards otherwise
 * (process-pending-events). The database being down is 503, which the upstream retries.
 */
export async function receiveWebhook(
  deps: IngressDeps,
  delivery: WebhookDelivery,
): Promise<{ eventId: string }> {
  const { config, logger } = deps;
  const signedWith = verifySignature(delivery.rawBody, delivery.signature, {
    current: config.INGRESS_APP_SECRET,
    previous: config.INGRESS_APP_SECRET_PREVIOUS,
  });
  if (!signedWith) {
    logger.warn('inbound webhook rejected', {
      reason: delivery.signature === undefined ? 'no X-Hub-Signature-256 header' : 'bad X-Hub-Signature-256',
      body_bytes: delivery.rawBody.length,
      user_agent: delivery.headers['user-agent'] ?? null,
    });
    throw new AppError('INVALID_SIGNATURE');
  }
  const body = jsonBody(delivery.rawBody);
  const eventId = newUlid();
  const receivedAt = new Date();
  const early = splitOnReceipt(deps, { bytes: delivery.rawBody.length, parsed: body.parsed }, receivedAt);
  if (early) early.split.sent = await sendOnReceipt(deps, eventId, early.split);
  let splitHere: boolean;
  try {
    splitHere = await deps.events.insert({
      id: eventId,
      receivedAt,
      requestId: delivery.requestId,
      bodySha256: createHash('sha256').update(delivery.rawBody).digest('hex'),
      rawBody: body.text,
      headers: storableHeaders(delivery.headers),
      signedWith,
      split: early?.split,
    });
  } catch (err) {
    logger.error('inbound webhook could not be stored', { error: (err as Error).message });
    throw new AppError('SERVICE_UNAVAILABLE');
  }
  if (splitHere && early) {
    countSkipped(deps, { skippedCount: early.split.skippedCount, skippedItems: [] }, early.replacedTexts);
  }
  await honourCustomerStops(deps, {
    text: body.text,
    items: () => early?.split.items.map((o) => o.item) ?? splitParsedBody(body.parsed, receivedAt).items,
  });
  return { eventId };
}
