import { createHash } from 'node:crypto';
import type { RedisClient } from '@bm/platform';
import type { LiveSession, SessionRecord, Sessions } from '../domain/ports/sessions.port';

const keyOf = (sessionId: string) => `gw:session:${createHash('sha256').update(sessionId).digest('hex')}`;
// The keys of a user's sessions, so that removing the user ends them all.
const userKeyOf = (userId: string) => `gw:user-sessions:${userId}`;

/**
 * Sessions in Redis, where every gateway replica sees them. The key's TTL is the idle timeout, moved on at each
 * use but never past the absolute end, so Redis forgets an ended session by itself.
 */
export class SessionStore implements Sessions {
  constructor(
    private readonly redis: RedisClient,
    private readonly idleMs: number,
    private readonly absoluteMs: number,
  ) {}

  async create(sessionId: string, record: SessionRecord): Promise<LiveSession> {
    const key = keyOf(sessionId);
    const userKey = userKeyOf(record.userId);
    await this.redis
      .multi()
      .set(key, JSON.stringify(record), 'PX', this.idleMs)
      .sadd(userKey, key)
      .pexpire(userKey, this.absoluteMs)
      .exec();
    return this.live(record, record.createdAt);
  }

  /** The session if it is still live, its idle deadline moved on; undefined when unknown, ended or revoked. */
  async touch(sessionId: string, now = Date.now()): Promise<LiveSession | undefined> {
    const key = keyOf(sessionId);
    const raw = await this.redis.get(key);
    if (raw === null) return undefined;
    const record = JSON.parse(raw) as SessionRecord;
    const live = this.live(record, now);
    const remaining = live.idleExpiresAt - now;
    if (remaining <= 0) {
      await this.redis.del(key);
      return undefined;
    }
    // PEXPIRE on a key deleted meanwhile (a sign-out racing this request) does nothing and answers 0.
    if ((await this.redis.pexpire(key, remaining)) === 0) return undefined;
    return live;
  }

  async isLive(sessionId: string, now = Date.now()): Promise<boolean> {
    // The key expires at the idle deadline and goes at sign-out: only the absolute lifetime is left to check.
    const raw = await this.redis.get(keyOf(sessionId));
    return raw !== null && this.live(JSON.parse(raw) as SessionRecord, now).absoluteExpiresAt > now;
  }

  async revoke(sessionId: string): Promise<void> {
    await this.redis.del(keyOf(sessionId));
  }

  async revokeAllOf(userId: string): Promise<void> {
    const userKey = userKeyOf(userId);
    const keys = await this.redis.smembers(userKey);
    await this.redis.del(...keys, userKey);
  }

  private live(record: SessionRecord, now: number): LiveSession {
    const absoluteExpiresAt = record.createdAt + this.absoluteMs;
    return { ...record, absoluteExpiresAt, idleExpiresAt: Math.min(now + this.idleMs, absoluteExpiresAt) };
  }
}
