import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// OWASP Password Storage Cheat Sheet: scrypt with N=2^17, r=8, p=1 (128 MiB per hash, over Node's 32 MiB
// default maxmem). The parameters travel in the stored string, so a later change leaves old hashes readable.
const OWASP = { N: 2 ** 17, r: 8, p: 1 };
const KEY_LENGTH = 64;
const SALT_BYTES = 16;

function derive(password: string, salt: Buffer, params: typeof OWASP): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/** `scrypt$N$r$p$<salt b64>$<hash b64>` of the password, with a new random salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, OWASP);
  return ['scrypt', OWASP.N, OWASP.r, OWASP.p, salt.toString('base64'), key.toString('base64')].join('$');
}

// Verified against when the email is unknown or has no password yet, so every failure costs one full hash.
const DUMMY_HASH = `scrypt$${OWASP.N}$${OWASP.r}$${OWASP.p}$${Buffer.alloc(SALT_BYTES).toString('base64')}$${Buffer.alloc(KEY_LENGTH).toString('base64')}`;

/** Whether the password matches the stored hash, compared in constant time; a null hash never matches. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = (stored ?? DUMMY_HASH).split('$');
  if (scheme !== 'scrypt' || hash === undefined) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return key.length === expected.length && timingSafeEqual(key, expected) && stored !== null;
}
