import { MESSAGING_ENDPOINTS } from '@bm/contracts';
import { AppError, InternalCallError, TransientError, type InternalClient } from '@bm/platform';
import { AccountLookupRefused, type AccountDirectory, type AccountOwner } from '../domain/ingress-ports';

// Answers about the id itself. Any other failure (a 401 of a wrong token, a 5xx, no answer) is ours to fix or
// wait out, and is retried: skipping items for it would lose them.
const REFUSED_ID_STATUSES = new Set([400, 413, 414, 422, 431]);

/** The HTTP status messaging answered with, when it answered. */
function statusOf(err: unknown): number | undefined {
  if (err instanceof InternalCallError) return err.httpStatus;
  if (err instanceof AppError && err.code !== 'SERVICE_UNAVAILABLE') return err.status;
  return undefined;
}

/**
 * Asks messaging which tenant owns a phone_number_id. Known owners are cached (a number does not change hands
 * in practice); an unknown number is asked again every time, so one connected a moment ago is seen at once.
 * Throws when messaging cannot answer, so the caller retries later rather than calling the number unknown, and
 * AccountLookupRefused when it refuses the id itself.
 */
export class ChannelAccountLookup implements AccountDirectory {
  private readonly cache = new Map<string, { owner: AccountOwner; expiresAt: number }>();

  constructor(
    private readonly messaging: InternalClient,
    private readonly ttlMs: number,
  ) {}

  knownOwner(phoneNumberId: string): AccountOwner | undefined {
    const hit = this.cache.get(phoneNumberId);
    return hit && hit.expiresAt > Date.now() ? hit.owner : undefined;
  }

  async ownerOf(phoneNumberId: string): Promise<AccountOwner | null> {
    const known = this.knownOwner(phoneNumberId);
    if (known) return known;
    let data;
    try {
      data = await this.messaging.call(MESSAGING_ENDPOINTS.accountByPhoneNumber, {
        params: { phoneNumberId },
      });
    } catch (err) {
      // Only messaging's own "no such account" means unknown; a 404 of a route it lacks is a failure to retry.
      if (err instanceof AppError && err.code === 'CHANNEL_ACCOUNT_NOT_FOUND') return null;
      const status = statusOf(err);
      if (status !== undefined && REFUSED_ID_STATUSES.has(status)) {
        throw new AccountLookupRefused(`messaging refused the account lookup (${status})`);
      }
      // Messaging down, draining or misconfigured (401): retried for as long as it lasts, never counted.
      throw new TransientError(`messaging could not answer the account lookup: ${(err as Error).message}`, {
        cause: err,
      });
    }
    if (typeof data?.channel_account_id !== 'string' || typeof data.tenant_id !== 'number') {
      throw new Error('messaging answered the account lookup without an account');
    }
    const owner = { channelAccountId: data.channel_account_id, tenantId: data.tenant_id };
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(phoneNumberId, { owner, expiresAt: Date.now() + this.ttlMs });
    return owner;
  }
}
