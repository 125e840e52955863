import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ulid } from 'ulidx';

const PREFIX = 'bm_live_';
const KEY_PATTERN = /^bm_live_([0-9A-HJKMNP-TV-Z]{26})([A-Za-z0-9_-]{43})$/;

export interface GeneratedKey {
  keyId: string;
  apiKey: string;
  secretHash: Buffer;
}

/** A new key: `bm_live_<key id><43 chars of 32 random bytes>`; only the SHA-256 of the secret part is kept. */
export function generateApiKey(): GeneratedKey {
  const keyId = ulid();
  const secret = randomBytes(32).toString('base64url');
  return { keyId, apiKey: `${PREFIX}${keyId}${secret}`, secretHash: hashSecret(secret) };
}

/** Splits a presented key into its id and secret; undefined when it is not shaped like one of ours. */
export function parseApiKey(apiKey: string): { keyId: string; secret: string } | undefined {
  const match = KEY_PATTERN.exec(apiKey);
  if (!match) return undefined;
  return { keyId: match[1], secret: match[2] };
}

// The one-shot hash: a third of createHash's cost, and it runs on every authenticated request.
export function hashSecret(secret: string): Buffer {
  return hash('sha256', secret, 'buffer');
}

/** Constant-time comparison of a presented secret with the stored hash. */
export function secretMatches(secret: string, storedHash: Buffer): boolean {
  const given = hashSecret(secret);
  return storedHash.length === given.length && timingSafeEqual(given, storedHash);
}
