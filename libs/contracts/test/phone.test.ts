import { normalizePhone, phoneSchema, phoneStructureSchema } from '@bm/contracts';

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
