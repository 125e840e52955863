import { AppError } from '@bm/platform';
import type { ApiKeys, KeyCredential } from '../ports/api-keys.port';
import type { AuthInvalidation } from '../ports/auth-invalidation.port';
import { parseApiKey, secretMatches } from './api-key';

interface CachedCredential {
  credential: KeyCredential;
  generation: number;
  expiresAt: number;
}

// A fixed hash to compare against when the key id is unknown, so unknown and wrong keys cost the same.
const DUMMY_HASH = Buffer.alloc(32);
const MAX_CACHED = 10_000;

/**
 * Resolves `Authorization: Bearer <key>` to a credential. Verified credentials are cached in memory, trusted
 * only while the invalidation channel vouches for them, so a revocation on any replica applies everywhere at once.
 */
export class ApiKeyAuthenticator {
  private readonly cache = new Map<string, CachedCredential>();

  constructor(
    private readonly keys: ApiKeys,
    private readonly invalidation: AuthInvalidation,
    private readonly ttlMs: number,
  ) {
    invalidation.onChange(() => this.cache.clear());
  }

  /** The credential for the header, from the cache when it may be trusted, else from the database; else 401. */
  async authenticate(authorization: string | undefined): Promise<KeyCredential> {
    const presented = /^Bearer (\S+)$/i.exec(authorization?.trim() ?? '')?.[1];
    const parsed = presented === undefined ? undefined : parseApiKey(presented);
    if (!parsed) throw new AppError('INVALID_API_KEY');
    const generation = this.ttlMs > 0 ? this.invalidation.generation() : undefined;
    const cached = this.cache.get(parsed.keyId);
    if (
      cached &&
      generation !== undefined &&
      cached.generation === generation &&
      cached.expiresAt > Date.now() &&
      secretMatches(parsed.secret, cached.credential.secretHash)
    ) {
      return cached.credential;
    }
    const credential = await this.keys.findCredential(parsed.keyId);
    const valid = secretMatches(parsed.secret, credential?.secretHash ?? DUMMY_HASH);
    if (!credential || !valid || credential.revoked) throw new AppError('INVALID_API_KEY');
    // Cached under the generation read before the database: a change racing this read invalidates it.
    if (generation !== undefined) {
      if (this.cache.size >= MAX_CACHED) this.cache.clear();
      this.cache.set(parsed.keyId, { credential, generation, expiresAt: Date.now() + this.ttlMs });
    }
    return credential;
  }
}
