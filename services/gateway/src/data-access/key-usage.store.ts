import type { Logger, RedisClient } from '@bm/platform';
import type { KeyUsage } from '../domain/ports/api-keys.port';

const HASH = 'gw:key-last-used';
// A key's last use is kept to the minute: one Redis write per key per minute per replica, not per request.
const RESOLUTION_MS = 60_000;
const MAX_TRACKED = 10_000;

/** When each API key was last used, in Redis so that every replica's requests count. */
export class KeyUsageStore implements KeyUsage {
  private readonly lastWritten = new Map<string, number>();

  constructor(
    private readonly redis: RedisClient,
    private readonly logger: Logger,
  ) {}

  /** Notes a use of the key; never fails the request (a lost note only makes "last used" older). */
  record(keyId: string, now = Date.now()): void {
    const last = this.lastWritten.get(keyId);
    if (last !== undefined && now - last < RESOLUTION_MS) return;
    if (this.lastWritten.size >= MAX_TRACKED) this.lastWritten.clear();
    this.lastWritten.set(keyId, now);
    this.redis.hset(HASH, keyId, String(now)).catch((err: unknown) => {
      this.logger.warn('could not record API key use', { error: (err as Error).message });
    });
  }

  async lastUsed(keyIds: string[]): Promise<Map<string, Date>> {
    const found = new Map<string, Date>();
    if (keyIds.length === 0) return found;
    const values = await this.redis.hmget(HASH, ...keyIds);
    values.forEach((v, i) => {
      if (v !== null) found.set(keyIds[i], new Date(Number(v)));
    });
    return found;
  }
}
