import { createHmac } from 'node:crypto';
import { safeEqual } from '@bm/platform';

const HEADER = /^sha256=([0-9a-fA-F]{64})$/;

/** The app secrets a signature may be made with: the current one and, during a rotation, the previous one. */
export interface AppSecrets {
  current: string;
  previous?: string;
}

/**
 * Checks `X-Hub-Signature-256: sha256=<hex>` against the HMAC-SHA256 of the raw bytes, in constant time, with
 * each secret. Answers which secret signed it, or undefined for a missing, malformed or wrong signature.
 */
export function verifySignature(
  raw: Buffer,
  header: string | undefined,
  secrets: AppSecrets,
): 'current' | 'previous' | undefined {
  const given = header === undefined ? undefined : HEADER.exec(header.trim())?.[1].toLowerCase();
  if (given === undefined) return undefined;
  const hmac = (secret: string) => createHmac('sha256', secret).update(raw).digest('hex');
  // Both are computed every time, so the answer's timing does not tell which secret is in use.
  const current = safeEqual(given, hmac(secrets.current));
  const previous = secrets.previous !== undefined && safeEqual(given, hmac(secrets.previous));
  if (current) return 'current';
  return previous ? 'previous' : undefined;
}
