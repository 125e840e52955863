import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { INTERNAL_HEADERS } from '@bm/contracts';
import { AppError, newUlid } from '@bm/platform';
import type { IngressDeps } from './ingress-deps';
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

/** The body as text if it is UTF-8 JSON; 400 INVALID_JSON otherwise. */
function jsonText(raw: Buffer): string {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
    JSON.parse(text);
    return text;
  } catch {
    throw new AppError('INVALID_JSON');
  }
}

/**
 * POST /api/webhooks/channel: checks the signature over the raw bytes (401 and nothing kept when it fails),
 * then stores the delivery in the audit log. Resolves once the row is committed, so a 200 means it is durable;
 * splitting it into items happens afterwards (process-pending-events). The database being down is 503, which
 * the upstream retries.
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
  const rawBody = jsonText(delivery.rawBody);
  const eventId = newUlid();
  try {
    await deps.events.insert({
      id: eventId,
      requestId: delivery.requestId,
      bodySha256: createHash('sha256').update(delivery.rawBody).digest('hex'),
      rawBody,
      headers: storableHeaders(delivery.headers),
      signedWith,
    });
  } catch (err) {
    logger.error('inbound webhook could not be stored', { error: (err as Error).message });
    throw new AppError('SERVICE_UNAVAILABLE');
  }
  return { eventId };
}
