import { AppError } from '@bm/platform';
import type { ApiKeyRepository, KeyCredential } from '../data-access/api-key.repository';
import { parseApiKey, secretMatches } from './api-key';

interface CachedCredential {
  credential: KeyCredential;
  epoch: string;
  expiresAt: number;
}

// A fixed hash to compare against when the key id is unknown, so unknown and wrong keys cost the same.
const DUMMY_HASH = Buffer.alloc(32);
const MAX_CACHED = 10_000;

/**
 * Resolves `Authorization: Bearer <key>` to a credential. Credentials are cached in memory but trusted only
 * while the auth epoch in Redis is unchanged (the rate limiter reads it in the same round trip), so a
 * revocation on any replica takes effect at once everywhere.
 */
export class ApiKeyAuthenticator {
  private readonly cache = new Map<string, CachedCredential>();

  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly readEpoch: () => Promise<string | undefined>,
    private readonly ttlMs: number,
  ) {}

  /**
   * The credential for the header, from cache when present (with the epoch it was cached under, which the
   * caller must confirm) or from the database; throws 401 INVALID_API_KEY.
   */
  async authenticate(
    authorization: string | undefined,
    { bypassCache = false } = {},
  ): Promise<{ credential: KeyCredential; cachedEpoch?: string }> {
    const presented = /^Bearer (\S+)$/i.exec(authorization?.trim() ?? '')?.[1];
    const parsed = presented === undefined ? undefined : parseApiKey(presented);
    if (!parsed) throw new AppError('INVALID_API_KEY');
    const cached = bypassCache ? undefined : this.cache.get(parsed.keyId);
    if (
      cached &&
      cached.expiresAt > Date.now() &&
      secretMatches(parsed.secret, cached.credential.secretHash)
    ) {
      return { credential: cached.credential, cachedEpoch: cached.epoch };
    }
    this.cache.delete(parsed.keyId);
    // The epoch is read before the database so a revocation racing this read invalidates what we cache.
    const epoch = this.ttlMs > 0 ? await this.readEpoch() : undefined;
    const credential = await this.keys.findCredential(parsed.keyId);
    const valid = secretMatches(parsed.secret, credential?.secretHash ?? DUMMY_HASH);
    if (!credential || !valid || credential.revoked) throw new AppError('INVALID_API_KEY');
    if (epoch !== undefined) this.remember(credential, epoch);
    return { credential };
  }

  private remember(credential: KeyCredential, epoch: string): void {
    if (this.cache.size >= MAX_CACHED) this.cache.clear();
    this.cache.set(credential.keyId, { credential, epoch, expiresAt: Date.now() + this.ttlMs });
  }
}
