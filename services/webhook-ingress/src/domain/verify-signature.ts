import { createHmac, timingSafeEqual } from 'node:crypto';

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
  const hex = header === undefined ? undefined : HEADER.exec(header.trim())?.[1];
  if (hex === undefined) return undefined;
  // 32 bytes, as the pattern guarantees: compared with the digests as bytes, no hex or extra hashing per call.
  const given = Buffer.from(hex, 'hex');
  const matches = (secret: string) =>
    timingSafeEqual(given, createHmac('sha256', secret).update(raw).digest());
  // Both are computed every time, so the answer's timing does not tell which secret is in use.
  const current = matches(secrets.current);
  const previous = secrets.previous !== undefined && matches(secrets.previous);
  if (current) return 'current';
  return previous ? 'previous' : undefined;
}
