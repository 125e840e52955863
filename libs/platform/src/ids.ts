import { createHash, randomFillSync } from 'node:crypto';
import { ulid } from 'ulidx';

// ulidx draws one crypto byte per character by default (16 system calls per id); ids are made on every event,
// so the randomness comes from a pool refilled 4 KiB at a time instead.
const pool = Buffer.alloc(4096);
let offset = pool.length;

function pooledRandom(): number {
  if (offset >= pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  return pool[offset++] / 256;
}

/** `bytes` random bytes from the crypto pool as lower-case hex (trace and span ids). */
export function randomHex(bytes: number): string {
  if (offset + bytes > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  offset += bytes;
  return pool.toString('hex', offset - bytes, offset);
}

/** A new ULID (time-sortable, 80 random bits from the crypto pool), of now or of the time given. */
export function newUlid(timeMs?: number): string {
  return ulid(timeMs, pooledRandom);
}

/**
 * The ULID an id's `key` always maps to: `timeMs` as its time, and 80 bits of the key's SHA-256 in place of the
 * random ones. For an event that may be emitted again after a crash (its redelivered cause applied once more): both
 * copies carry the same id, so each consumer keeps one.
 */
export function derivedUlid(timeMs: number, key: string): string {
  const digest = createHash('sha256').update(key).digest();
  let i = 0;
  return ulid(timeMs, () => digest[i++] / 256);
}
