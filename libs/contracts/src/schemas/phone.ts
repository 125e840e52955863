import Joi from 'joi';
import { parsePhoneNumberFromString } from 'libphonenumber-js';

/** The message every invalid phone gets, for field errors and failed campaign recipients alike. */
export const PHONE_INVALID_MESSAGE = 'must be a valid number with country code';

// Separators people type between digit groups; anything else (letters, dots, slashes) makes the number invalid.
const SEPARATORS = /[\s\-()]/g;
// E.164 allows at most 15 digits; checking first keeps absurd input away from the parser.
const DIGITS = /^\d{1,15}$/;

/**
 * Normalizes a phone to E.164 digits without `+` (country code first), or null when it is not a possible
 * number for a real country calling code. Input may carry a leading `+`, spaces, dashes and parentheses.
 */
export function normalizePhone(input: string): string | null {
  const stripped = input.replace(SEPARATORS, '');
  const digits = stripped.startsWith('+') ? stripped.slice(1) : stripped;
  if (!DIGITS.test(digits)) return null;
  // A leading '+' makes the parser read the country calling code from the digits, never assume a country.
  const parsed = parsePhoneNumberFromString(`+${digits}`);
  if (!parsed?.isPossible()) return null;
  // The canonical form drops a national trunk prefix typed after the country code (+44 07911… → 447911…),
  // so the same person is stored, deduplicated and opted out under one number.
  return parsed.number.slice(1);
}

/** A recipient phone: validated and converted to its normalized digits. */
export const phoneSchema = Joi.string()
  .max(64)
  .custom((value: string, helpers) => normalizePhone(value) ?? helpers.error('phone.invalid'))
  .messages({ 'phone.invalid': `{{#label}} ${PHONE_INVALID_MESSAGE}` })
  .description(
    'Phone number with country code; a leading +, spaces, dashes and parentheses are allowed. ' +
      'Answers carry it as digits only (E.164 without +).',
  )
  .example('966501234567');

/**
 * A phone whose structure only is checked (a non-empty string): campaigns turn an invalid number into a failed
 * recipient instead of rejecting the whole list, so the campaign service normalizes with `normalizePhone`.
 * No length limit for the same reason; an empty string counts as missing.
 */
export const phoneStructureSchema = Joi.string()
  .description('Phone number with country code; an invalid number becomes a failed recipient')
  .example('+966 50 123 4567');
