import Joi from 'joi';
import { paginationQuerySchema, type Pagination } from './common';
import { customerAddressKeys } from './customer-address';
import { phoneSchema } from './phone';

/** How a phone came onto the list: by the API, or by the customer's STOP-style message. */
// marketing_stop: the customer stopped marketing in WhatsApp (the upstream's 131050 or user_preferences webhook).
export const OPT_OUT_SOURCES = ['api', 'keyword', 'marketing_stop'] as const;
export type OptOutSource = (typeof OPT_OUT_SOURCES)[number];

export interface AddOptOutRequest {
  /** Normalized digits after validation; absent when the body names the customer by `user_id`. */
  phone?: string;
  /** The customer's business-scoped user id (CONTRACT.md, the network of late 2026). */
  user_id?: string;
}

/** POST /api/v1/opt-outs: `{phone}` or `{user_id}`, exactly one. */
export const addOptOutSchema = Joi.object<AddOptOutRequest>({
  // The customer by phone or by user id (CONTRACT.md, the network of late 2026): exactly one of the two.
  ...customerAddressKeys,
});

/**
 * DELETE /api/v1/opt-outs/{phone}: the path phone, normalized like the body's. A path that is a user id
 * (`isUserIdAddress`) names the customer by it instead.
 */
export const optOutPhoneParamSchema = phoneSchema.required();

export interface OptOutDto {
  /** Null for an entry that names the customer by user id. */
  phone: string | null;
  /** Only on an entry that names the customer by user id. */
  user_id?: string;
  source: OptOutSource;
  created_at: string;
}

export interface ListOptOutsQuery {
  page: number;
  per_page: number;
  /** Digits the phone starts with (a search); the dashboard's search box. */
  phone?: string;
}

/** GET /api/v1/opt-outs query: paginated like every other list, so a long list stays one cheap page. */
export const listOptOutsQuerySchema = Joi.object<ListOptOutsQuery>({
  ...paginationQuerySchema,
  phone: Joi.string()
    .pattern(/^\+?\d{1,15}$/, 'digits')
    .custom((v: string) => v.replace(/^\+/, ''))
    .description('Only phones that start with these digits (a search)'),
});

/** GET /api/v1/opt-outs answer, newest first. */
export interface OptOutListDto {
  opt_outs: OptOutDto[];
  pagination: Pagination;
}

/** DELETE /api/v1/opt-outs/{phone} answer, as Stripe answers a deletion. */
export interface OptOutDeletedDto {
  phone: string | null;
  user_id?: string;
  deleted: true;
}

const OPT_OUT_WORDS = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'OPT OUT']);
const OPT_IN_WORDS = new Set(['START', 'SUBSCRIBE']);

/**
 * What an inbound text asks for: the whole text, trimmed and in any case, must be one keyword, so a sentence
 * that merely contains "stop" changes nothing. Runs of spaces inside "OPT OUT" count as one.
 */
export function optOutIntent(text: string | null | undefined): 'opt_out' | 'opt_in' | null {
  if (!text) return null;
  const word = text.trim().replace(/\s+/g, ' ').toUpperCase();
  if (OPT_OUT_WORDS.has(word)) return 'opt_out';
  if (OPT_IN_WORDS.has(word)) return 'opt_in';
  return null;
}

/** A customer's marketing preference, as one `user_preferences` item tells it (WIRE-2026.md). */
export interface MarketingPreference {
  /** The customer's phone digits; null for one named by user id only. */
  phone: string | null;
  user_id: string | null;
  value: 'stop' | 'resume';
  /** When the customer chose it (the item's `timestamp`, else the change's), ISO 8601 UTC. */
  chosen_at: string;
}

const textOf = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/**
 * The marketing preferences a `user_preferences` change's value holds: its `marketing_messages` items saying `stop`
 * or `resume` that name the customer. `changedAt` (ISO) dates an item without a `timestamp` of its own.
 */
export function marketingPreferencesOf(
  value: Record<string, unknown>,
  changedAt: string,
): MarketingPreference[] {
  const items = Array.isArray(value.user_preferences) ? (value.user_preferences as unknown[]) : [];
  const preferences: MarketingPreference[] = [];
  for (const p of items) {
    if (typeof p !== 'object' || p === null) continue;
    const { category, value: choice, wa_id: waId, user_id: userId, timestamp } = p as Record<string, unknown>;
    if (category !== 'marketing_messages' || (choice !== 'stop' && choice !== 'resume')) continue;
    const phone = textOf(waId)?.replace(/\D/g, '') || null;
    const user = textOf(userId);
    if (!phone && !user) continue;
    const seconds = Number(timestamp);
    const chosenAt =
      timestamp !== undefined && Number.isFinite(seconds) && seconds > 0
        ? new Date(seconds * 1000).toISOString()
        : changedAt;
    preferences.push({ phone, user_id: user, value: choice, chosen_at: chosenAt });
  }
  return preferences;
}

/**
 * When a customer made a choice about marketing (a stop or resume, a STOP or START keyword), so that only their
 * latest counts whatever order the copies of their choices arrive in: the upstream's time of it (seconds), then
 * when we received it, which orders two choices the upstream dated in the same second.
 */
export interface CustomerChoiceTime {
  /** ISO 8601 UTC. */
  chosen_at: string;
  /** ISO 8601 UTC; the same as `chosen_at` where unknown. */
  received_at: string;
}
