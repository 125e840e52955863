import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { INTERNAL_HEADERS } from '@bm/contracts';
import { AppError, newUlid } from '@bm/platform';
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
 * POST /api/webhooks/channel: checks the signature over the raw bytes (401 and nothing kept when it fails),
 * then stores the delivery in the audit log. Resolves once the row is committed, so a 200 means it is durable,
 * and once a customer's stop in it is applied (honourCustomerStops);
 * splitting it into items happens in that same statement when it can be done safely there (splitOnReceipt),
 * afterwards otherwise (process-pending-events). The database being down is 503, which the upstream retries.
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
