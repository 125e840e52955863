import { createHmac, timingSafeEqual } from 'node:crypto';

/** The headers of an outbound webhook, in any case (Node's lower-cased `req.headers` or a Fetch `Headers`). */
export type WebhookHeaders = Record<string, string | string[] | undefined> | Headers;

export interface VerifyOptions {
  /** Reject a delivery whose timestamp is further than this from now (replays); default 300 s, 0 disables. */
  toleranceSeconds?: number;
  now?: Date;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name.toLowerCase());
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Whether an outbound webhook is ours (CONTRACT.md "Signatures"): `X-Webhook-Signature` holds `sha256=<hex>`
 * HMAC-SHA256 over `<X-Webhook-Timestamp>.<raw body>` keyed with the whole `whsec_...` secret, and during a
 * rotation's grace period one such value per secret, space-separated; any of them matching is enough. Pass the
 * body exactly as received, before any JSON parsing. Compared in constant time.
 */
export function verifyWebhookSignature(
  secret: string,
  headers: WebhookHeaders,
  rawBody: string | Buffer,
  options: VerifyOptions = {},
): boolean {
  const timestamp = header(headers, 'x-webhook-timestamp');
  const signatures = header(headers, 'x-webhook-signature');
  if (timestamp === undefined || signatures === undefined) return false;
  const tolerance = options.toleranceSeconds ?? 300;
  if (tolerance > 0) {
    const sentAt = Date.parse(timestamp);
    const now = (options.now ?? new Date()).getTime();
    if (Number.isNaN(sentAt) || Math.abs(now - sentAt) > tolerance * 1000) return false;
  }
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
  const expected = createHmac('sha256', secret)
    .update(Buffer.concat([Buffer.from(`${timestamp}.`, 'utf8'), body]))
    .digest();
  return signatures.split(' ').some((candidate) => {
    const match = /^sha256=([0-9a-f]{64})$/.exec(candidate.trim());
    return match !== null && timingSafeEqual(Buffer.from(match[1], 'hex'), expected);
  });
}
