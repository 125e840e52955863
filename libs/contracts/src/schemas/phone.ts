import Joi from 'joi';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import {
  Metadata,
  parsePhoneNumberFromString as parseWithMetadata,
  type CountryCode,
  type MetadataJson,
} from 'libphonenumber-js/core';
import minMetadataJson from 'libphonenumber-js/metadata.min.json';

/** The message every invalid phone gets, for field errors and failed campaign recipients alike. */
export const PHONE_INVALID_MESSAGE = 'must be a valid number with country code';

// Separators people type between digit groups; anything else (letters, dots, slashes) makes the number invalid.
const SEPARATORS = /[\s\-()]/g;
// E.164 allows at most 15 digits; checking first keeps absurd input away from the parser.
const DIGITS = /^\d{1,15}$/;

/*
 * libphonenumber-js, after reading the country calling code and the national number, works out which country of a
 * calling code shared by several (1: the US, Canada and 23 more; 44: GB, GG, IM, JE; 7, 61, ...) the number
 * belongs to, by trying each country's number patterns: most of the time of a +1 number. What we keep of it does
 * not need that country: the E.164 digits are the calling code and the national number, and "possible" only asks
 * whether the national number's length is one of the country's possible lengths. So numbers are first parsed with
 * metadata that names one country per calling code (no search), and only a number whose length is possible in
 * some countries of its calling code but not in others (a 7-digit +1 number: Canada yes, the US no) is parsed again
 * with the real metadata. The answer is the library's own either way (a property test holds the two to each
 * other); a +1 number takes 5-7 us here instead of 20-30, a +44 one half its time, others the same.
 */
// The metadata the library's default entry uses.
const minMetadata = minMetadataJson as unknown as MetadataJson;
const plans = new Metadata(minMetadata);
const lengthsOf = (country: CountryCode): number[] => {
  plans.selectNumberingPlan(country);
  return plans.numberingPlan?.possibleLengths() ?? [];
};
/** Per shared calling code, the national number lengths its countries disagree on. */
const DISPUTED_LENGTHS = new Map<string, Set<number>>();
const ONE_COUNTRY_PER_CODE: MetadataJson = {
  ...minMetadata,
  country_calling_codes: Object.fromEntries(
    Object.entries(minMetadata.country_calling_codes).map(([code, countries]) => {
      if (countries.length > 1) {
        const sets = countries.map(lengthsOf);
        const all = new Set(sets.flat());
        const disputed = [...all].filter((length) => !sets.every((lengths) => lengths.includes(length)));
        if (disputed.length > 0) DISPUTED_LENGTHS.set(code, new Set(disputed));
      }
      return [code, countries.slice(0, 1)];
    }),
  ),
};

/**
 * The input as `+<digits>` once separators and a leading `+` are stripped, or null when that is not 1-15 digits.
 * The `+` makes the parser read the country calling code from the digits, never assume a country.
 */
function e164Of(input: string): string | null {
  const stripped = input.replace(SEPARATORS, '');
  const digits = stripped.startsWith('+') ? stripped.slice(1) : stripped;
  return DIGITS.test(digits) ? `+${digits}` : null;
}

/** The library's own parse: E.164 digits without `+` when possible, else null. */
function parsePossible(e164: string): string | null {
  const parsed = parsePhoneNumberFromString(e164);
  return parsed?.isPossible() ? parsed.number.slice(1) : null;
}

/**
 * Normalizes a phone to E.164 digits without `+` (country code first), or null when it is not a possible
 * number for a real country calling code. Input may carry a leading `+`, spaces, dashes and parentheses.
 */
export function normalizePhone(input: string): string | null {
  const e164 = e164Of(input);
  if (e164 === null) return null;
  const parsed = parseWithMetadata(e164, ONE_COUNTRY_PER_CODE);
  if (!parsed) return null;
  if (DISPUTED_LENGTHS.get(parsed.countryCallingCode)?.has(parsed.nationalNumber.length)) {
    return parsePossible(e164);
  }
  // The canonical form drops a national trunk prefix typed after the country code (+44 07911… → 447911…),
  // so the same person is stored, deduplicated and opted out under one number.
  return parsed.isPossible() ? parsed.number.slice(1) : null;
}

/** The library's parse with its country search, the reference `normalizePhone` must always agree with. */
export function normalizePhoneReference(input: string): string | null {
  const e164 = e164Of(input);
  return e164 === null ? null : parsePossible(e164);
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
