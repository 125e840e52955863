import fc from 'fast-check';
import { normalizePhone, normalizePhoneReference, phoneSchema, phoneStructureSchema } from '@bm/contracts';

describe('normalizePhone', () => {
  it.each([
    ['+966 50 123 4567', '966501234567'],
    ['966501234567', '966501234567'],
    ['+1 (650) 555-1234', '16505551234'],
    ['1-650-555-1234', '16505551234'],
    ['+44 7911 123456', '447911123456'],
    ['+49 151 12345678', '4915112345678'],
    ['+971 50 123 4567', '971501234567'],
    ['+91 98765 43210', '919876543210'],
  ])('when the input is %p, then it normalizes to %p', (input, expected) => {
    expect(normalizePhone(input)).toBe(expected);
  });

  it('when a national trunk prefix follows the country code, then the canonical E.164 digits are returned', () => {
    expect(normalizePhone('+966 050 123 4567')).toBe('966501234567');
  });

  it.each([
    ['0501234567', 'no country code (a leading 0 is no calling code)'],
    ['501234567', 'no country code (50 is no calling code)'],
    ['+966 50 ABC 4567', 'letters'],
    ['966.50.123.4567', 'dots'],
    ['+999123456789', 'an unassigned calling code'],
    ['12345', 'too short for its calling code'],
    ['9665012345678901', 'more than 15 digits'],
    ['++966501234567', 'two plus signs'],
    ['', 'empty input'],
  ])('when the input is %p (%s), then it is invalid', (input) => {
    expect(normalizePhone(input)).toBeNull();
  });
});

describe('normalizePhone without the country search', () => {
  // Calling codes several countries share (where the shortcut matters), then a few others.
  const shared = ['1', '7', '44', '47', '61', '212', '262', '290', '358', '590', '599', '39'];
  const others = ['966', '49', '33', '91', '971', '20', '86', '55', '234', '62', '380', '998'];
  const digits = (min: number, max: number) =>
    fc.array(fc.integer({ min: 0, max: 9 }), { minLength: min, maxLength: max }).map((d) => d.join(''));
  const phone = fc
    .tuple(
      fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...shared) }, fc.constantFrom(...others)),
      fc.constantFrom('', '0', '1'),
      digits(1, 13),
      fc.constantFrom('', '+'),
      fc.constantFrom('', ' ', '-'),
    )
    .map(([code, trunk, rest, plus, separator]) => `${plus}${code}${separator}${trunk}${rest}`);

  it('when any number is normalized, then the answer is the library country search’s own', () => {
    fc.assert(
      fc.property(phone, (input) => normalizePhone(input) === normalizePhoneReference(input)),
      { numRuns: 10_000, seed: 20261123 },
    );
  });

  it.each([
    ['+1 415 555 0100', '14155550100'],
    ['+1 204 555 0100', '12045550100'],
    ['+1 555 0100', null],
    ['+44 07911 123456', '447911123456'],
    ['+7 912 345 6789', '79123456789'],
    ['+61 4 1234 5678', '61412345678'],
  ])('when %p is shared by several countries, then it is %p as the library says', (input, expected) => {
    expect(normalizePhone(input)).toBe(expected);
    expect(normalizePhoneReference(input)).toBe(expected);
  });
});

describe('phoneSchema', () => {
  it('when the phone is valid, then the validated value is the normalized digits', () => {
    expect(phoneSchema.validate('+1 (650) 555-1234')).toEqual({ value: '16505551234' });
  });

  it('when the phone is invalid, then the error says it needs a country code', () => {
    const { error } = phoneSchema.label('phone').validate('0501234567');
    expect(error?.message).toBe('"phone" must be a valid number with country code');
  });

  it('when a campaign phone is a string but invalid, then the structure schema lets it through unchanged', () => {
    expect(phoneStructureSchema.validate('not a phone')).toEqual({ value: 'not a phone' });
  });
});
