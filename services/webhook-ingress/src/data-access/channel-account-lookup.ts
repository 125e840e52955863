import { INTERNAL_HEADERS } from '@bm/contracts';
import { TransientError } from '@bm/platform';

/** The owner of an upstream number, as messaging knows it. */
export interface AccountOwner {
  channelAccountId: string;
  tenantId: number;
}

/**
 * Messaging refused to look the number up (a 4xx other than "no such account", e.g. an id too long for a URL):
 * asking again will not change that, so the items of that number are skipped rather than retried.
 */
export class AccountLookupRefused extends Error {}

// Answers about the id itself. Any other failure (a 401 of a wrong token, a 5xx, no answer) is ours to fix or
// wait out, and is retried: skipping items for it would lose them.
const REFUSED_ID_STATUSES = new Set([400, 413, 414, 422, 431]);

interface LookupAnswer {
  data?: { channel_account_id?: unknown; tenant_id?: unknown };
  error?: { code?: unknown };
}

/**
 * Asks messaging which tenant owns a phone_number_id. Known owners are cached (a number does not change hands
 * in practice); an unknown number is asked again every time, so one connected a moment ago is seen at once.
 * Throws when messaging cannot answer, so the caller retries later rather than calling the number unknown, and
 * AccountLookupRefused when it refuses the id itself.
 */
export class ChannelAccountLookup {
  private readonly cache = new Map<string, { owner: AccountOwner; expiresAt: number }>();

  constructor(
    private readonly messagingUrl: string,
    private readonly internalToken: string,
    private readonly ttlMs: number,
    private readonly timeoutMs: number,
  ) {}

  async ownerOf(phoneNumberId: string): Promise<AccountOwner | null> {
    const hit = this.cache.get(phoneNumberId);
    if (hit && hit.expiresAt > Date.now()) return hit.owner;
    // Dots too: a URL would resolve an id of `.` or `..` to another path instead of asking about it.
    const segment = encodeURIComponent(phoneNumberId).replace(/\./g, '%2E');
    const url = `${this.messagingUrl}/internal/v1/channel-accounts/by-phone-number/${segment}`;
    const res = await fetch(url, {
      headers: { [INTERNAL_HEADERS.token]: this.internalToken },
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const answer = (await res.json().catch(() => ({}))) as LookupAnswer;
    // Only messaging's own "no such account" means unknown; a 404 of a route it lacks is a failure to retry.
    if (res.status === 404 && answer.error?.code === 'CHANNEL_ACCOUNT_NOT_FOUND') return null;
    if (REFUSED_ID_STATUSES.has(res.status)) {
      throw new AccountLookupRefused(`messaging refused the account lookup (${res.status})`);
    }
    // Messaging down, draining or misconfigured (401): retried for as long as it lasts, never counted.
    if (!res.ok) throw new TransientError(`messaging answered ${res.status} to the account lookup`);
    const { data } = answer;
    if (typeof data?.channel_account_id !== 'string' || typeof data.tenant_id !== 'number') {
      throw new Error('messaging answered the account lookup without an account');
    }
    const owner = { channelAccountId: data.channel_account_id, tenantId: data.tenant_id };
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(phoneNumberId, { owner, expiresAt: Date.now() + this.ttlMs });
    return owner;
  }
}
