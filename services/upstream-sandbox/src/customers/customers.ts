import { createHash } from 'node:crypto';
import { NUMBER_PATTERNS, WIRE_2026_PATTERNS } from '../faults/number-patterns';
import type { Customer, SandboxState } from '../state';

const FAULT_SUFFIXES = [...NUMBER_PATTERNS, ...WIRE_2026_PATTERNS].map((p) => p.suffix);

/** A business-scoped user id: a country code, a dot, maybe `ENT.` (a parent id), then up to 128 letters and digits. */
export const USER_ID = /^[A-Z]{2}\.(ENT\.)?[A-Za-z0-9]{1,128}$/;

/** Calling-code prefixes to the country a user id starts with; longest prefix first. Unknown ones read `ZZ`. */
const CALLING_CODES: readonly [string, string][] = [
  ['351', 'PT'],
  ['234', 'NG'],
  ['971', 'AE'],
  ['966', 'SA'],
  ['254', 'KE'],
  ['44', 'GB'],
  ['55', 'BR'],
  ['52', 'MX'],
  ['91', 'IN'],
  ['34', 'ES'],
  ['49', 'DE'],
  ['33', 'FR'],
  ['39', 'IT'],
  ['54', 'AR'],
  ['57', 'CO'],
  ['62', 'ID'],
  ['27', 'ZA'],
  ['20', 'EG'],
  ['61', 'AU'],
  ['81', 'JP'],
  ['1', 'US'],
  ['7', 'RU'],
];

export function countryOf(waId: string): string {
  return CALLING_CODES.find(([prefix]) => waId.startsWith(prefix))?.[1] ?? 'ZZ';
}

/**
 * 20 decimal digits from a hash of the parts: stable for the same input, different across portfolios. Never ending
 * in a fault pattern's digits, so a send to a derived id only fails when a test chose such an id itself.
 */
function digitsFrom(...parts: string[]): string {
  for (let salt = 0; ; salt += 1) {
    const hex = createHash('sha256')
      .update([...parts, salt === 0 ? '' : String(salt)].join('|'))
      .digest('hex')
      .slice(0, 16);
    const digits = BigInt(`0x${hex}`).toString().padStart(20, '0').slice(-20);
    if (!FAULT_SUFFIXES.some((suffix) => digits.endsWith(suffix))) return digits;
  }
}

/** The user id the network gives a phone within a portfolio: `CC.` and 20 digits, the same every time. */
export function userIdForPhone(businessId: string, waId: string): string {
  return `${countryOf(waId)}.${digitsFrom('phone', businessId, waId)}`;
}

/** The user id of a customer the sandbox knows by username only. */
export function userIdForUsername(businessId: string, username: string): string {
  return `ZZ.${digitsFrom('username', businessId, username.toLowerCase())}`;
}

const phoneKey = (businessId: string, waId: string): string => `${businessId}|wa:${waId}`;
const userKey = (businessId: string, userId: string): string => `${businessId}|uid:${userId}`;

function remember(state: SandboxState, customer: Customer): Customer {
  if (customer.wa_id !== undefined)
    state.customers.set(phoneKey(customer.business_id, customer.wa_id), customer);
  state.customers.set(userKey(customer.business_id, customer.user_id), customer);
  return customer;
}

export function findByPhone(state: SandboxState, businessId: string, waId: string): Customer | undefined {
  return state.customers.get(phoneKey(businessId, waId));
}

export function findByUserId(state: SandboxState, businessId: string, userId: string): Customer | undefined {
  return state.customers.get(userKey(businessId, userId));
}

/**
 * The customer behind a phone: the one introduced, else one with the derived user id. Only `remember` keeps it
 * (sends do not, so long benchmarks to random numbers keep memory flat; the derived id is the same anyway).
 */
export function customerByPhone(
  state: SandboxState,
  businessId: string,
  waId: string,
  keep = false,
): Customer {
  const known = findByPhone(state, businessId, waId);
  if (known !== undefined) return known;
  const customer: Customer = {
    business_id: businessId,
    wa_id: waId,
    user_id: userIdForPhone(businessId, waId),
    username_only: false,
  };
  return keep ? remember(state, customer) : customer;
}

/** The customer behind a user id; one nobody introduced is a customer with a username and no known phone. */
export function customerByUserId(state: SandboxState, businessId: string, userId: string): Customer {
  return (
    findByUserId(state, businessId, userId) ?? {
      business_id: businessId,
      user_id: userId,
      username_only: true,
    }
  );
}

export interface CustomerInput {
  wa_id?: string;
  user_id?: string;
  username?: string;
  username_only?: boolean;
}

/**
 * Introduces or changes a customer of a portfolio. A phone keeps its derived user id unless one is given; a
 * customer without a phone is username-only. Settings given here win over what was known.
 */
export function upsertCustomer(state: SandboxState, businessId: string, input: CustomerInput): Customer {
  const known =
    (input.wa_id === undefined ? undefined : findByPhone(state, businessId, input.wa_id)) ??
    (input.user_id === undefined ? undefined : findByUserId(state, businessId, input.user_id));
  const waId = input.wa_id ?? known?.wa_id;
  const userId =
    input.user_id ??
    known?.user_id ??
    (waId !== undefined
      ? userIdForPhone(businessId, waId)
      : userIdForUsername(businessId, input.username ?? 'customer'));
  const customer: Customer = {
    business_id: businessId,
    wa_id: waId,
    user_id: userId,
    username: input.username ?? known?.username,
    username_only: input.username_only ?? (waId === undefined ? true : (known?.username_only ?? false)),
    marketing: known?.marketing,
  };
  if (customer.wa_id === undefined) delete customer.wa_id;
  if (customer.username === undefined) delete customer.username;
  if (customer.marketing === undefined) delete customer.marketing;
  if (known !== undefined && known.user_id !== userId)
    state.customers.delete(userKey(businessId, known.user_id));
  return remember(state, customer);
}

/** Every customer once (the map holds each under its phone and its user id). */
export function listCustomers(state: SandboxState): Customer[] {
  return [...new Set(state.customers.values())];
}

/** Records a customer's marketing preference (keeping the customer from then on). */
export function setMarketing(state: SandboxState, customer: Customer, value: 'stop' | 'resume'): Customer {
  return remember(state, { ...customer, marketing: value });
}
