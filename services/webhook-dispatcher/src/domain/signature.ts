import { createHmac, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

/** A new signing secret: `whsec_` + base64 of 32 random bytes (CONTRACT.md "Signatures"). */
export function generateSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** `sha256=<hex>` of HMAC-SHA256 over `<timestamp>.<body>`, keyed with the whole secret string. */
export function signatureOf(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex')}`;
}

/**
 * The X-Webhook-Signature value: one signature per active secret, the newest first, separated by a space, so a
 * receiver that still holds the previous secret keeps verifying during the grace period. Undefined when none.
 */
export function signatureHeader(secrets: string[], timestamp: string, body: string): string | undefined {
  if (secrets.length === 0) return undefined;
  return secrets.map((s) => signatureOf(s, timestamp, body)).join(' ');
}
