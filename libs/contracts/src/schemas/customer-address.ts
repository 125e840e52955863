import Joi from 'joi';
import { phoneSchema } from './phone';

/*
 * A customer is addressed by phone (digits) or by business-scoped user id (CONTRACT.md, the network of late 2026).
 * Where one column or key holds either (an opt-out, a window, a recipient), it is the customer's "address": the two
 * never look alike, since a user id starts with a two-letter country and a dot and a phone is digits only.
 */

/** A business-scoped user id as the upstream writes it: a country code, a dot, then letters, digits and dots. */
export const USER_ID_PATTERN = /^[A-Z]{2}\.[A-Za-z0-9.]{1,140}$/;

export const userIdSchema = Joi.string()
  .pattern(USER_ID_PATTERN, 'business-scoped user id')
  .description("The customer's business-scoped user id (e.g. US.13491208655302741918), instead of phone");

/**
 * The keys of a body that names a customer by `phone` or by `user_id`, exactly one of the two (a send, an opt-out):
 * both, or neither, is a validation error naming them.
 */
export const customerAddressKeys = {
  phone: Joi.when('user_id', {
    is: Joi.exist(),
    then: Joi.any()
      .forbidden()
      .messages({ 'any.unknown': '"phone" and "user_id" cannot both be given: name the customer by one' }),
    otherwise: phoneSchema.required().messages({ 'any.required': '"phone" or "user_id" is required' }),
  }),
  user_id: userIdSchema,
};

/** Whether an address is a user id (else it is a phone's digits). */
export const isUserIdAddress = (address: string): boolean => USER_ID_PATTERN.test(address);

/**
 * An address as the API shows it: `{phone}` as published for a phone, `{phone: null, user_id}` for a user id (an
 * entry by phone keeps the published shape, without a `user_id` key).
 */
export function splitAddress(address: string): { phone: string | null; user_id?: string } {
  return isUserIdAddress(address) ? { phone: null, user_id: address } : { phone: address };
}

/**
 * A customer's message names them by phone (`from`), by business-scoped user id (`from_user_id`), or both
 * (CONTRACT.md, the network of late 2026): an object schema's check that one of them is there.
 */
export const namesTheCustomer: Joi.CustomValidator<{ from?: string | null; from_user_id?: string | null }> = (
  value,
  helpers,
) =>
  value.from || value.from_user_id
    ? value
    : helpers.message({ custom: '"from" or "from_user_id" must name the customer' });

/** A customer known by both addresses: from then on one customer (window, opt-outs, flows, conversations). */
export interface CustomerLink {
  phone: string;
  userId: string;
}

/** The link a customer's message makes, when it names them both ways. */
export function linkOf(message: { from: string | null; from_user_id: string | null }): CustomerLink | null {
  const phone = message.from?.replace(/\D/g, '') || null;
  return phone && message.from_user_id ? { phone, userId: message.from_user_id } : null;
}

/**
 * A customer's change of address (a `system` message): `user_changed_number` moves them from the old number
 * (`from`) to `system.wa_id` / `system.new_wa_id`; `user_changed_user_id` from `system.previous_user_id` to
 * `from_user_id`. Their opt-out, window and link follow. Null for any other message, or one that names no move.
 */
export interface AddressChange {
  previous: string;
  current: string;
  /** The customer's other address after the move, where the message names it (to link them). */
  link: CustomerLink | null;
}

export function addressChangeOf(message: {
  type: string;
  from: string | null;
  from_user_id: string | null;
  raw: Record<string, unknown>;
}): AddressChange | null {
  if (message.type !== 'system') return null;
  const system = (message.raw.system ?? {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
  const digits = (v: unknown) => text(v)?.replace(/\D/g, '') || null;
  const oldPhone = digits(message.from);
  if (system.type === 'user_changed_number') {
    const newPhone = digits(system.new_wa_id) ?? digits(system.wa_id);
    if (!oldPhone || !newPhone || oldPhone === newPhone) return null;
    const userId = text(message.from_user_id);
    return { previous: oldPhone, current: newPhone, link: userId ? { phone: newPhone, userId } : null };
  }
  if (system.type === 'user_changed_user_id') {
    const previous = text(system.previous_user_id);
    const current = text(message.from_user_id);
    if (!previous || !current || previous === current) return null;
    return { previous, current, link: oldPhone ? { phone: oldPhone, userId: current } : null };
  }
  return null;
}
