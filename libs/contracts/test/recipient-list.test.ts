import { campaignRecipientSchema, recipientListDocumentSchema, recipientListSchema } from '@bm/contracts';
import type Joi from 'joi';

// Order included: the fast check must list errors as joi would.
function errorsOf(schema: Joi.Schema, value: unknown): Array<{ path: string; message: string }> {
  const { error } = schema.validate(value, { abortEarly: false });
  return (error?.details ?? []).map((d) => ({ path: d.path.join('.'), message: d.message }));
}

const BAD_RECIPIENTS: unknown[] = [
  { phone: '966501234567', name: 'Ann', variables: { '1': 'a', '12': 'b' } },
  { phone: '+1 650 555 1234', name: null },
  { phone: 'not a number', name: '' },
  {},
  { phone: 966501234567 },
  { phone: null },
  { phone: '' },
  { phone: 'x', name: 5 },
  { phone: 'x', name: 'n'.repeat(257) },
  { phone: 'x', email: 'a@b.c', zip: '1' },
  { phone: 'x', variables: [] },
  { phone: 'x', variables: null },
  { phone: 'x', variables: 'a' },
  { phone: 'x', variables: { name: 'a', '0': 'b', '1000': 'c', '01': 'd' } },
  { phone: 'x', variables: { '1': 2, '2': '', '3': 'v'.repeat(1025), '4': null } },
  { user_id: 'US.13491208655302741918', name: 'Ann' },
  { user_id: '' },
  { user_id: 5, name: 5 },
  { user_id: 'u'.repeat(257) },
  { phone: '966501234567', user_id: 'US.1' },
  { phone: 5, user_id: 'US.1', extra: 1 },
  'just a string',
  null,
  ['966501234567'],
  42,
];

describe('recipientListSchema', () => {
  it('when recipients are good or bad in every known way, then the fast check reports exactly what joi items do', () => {
    expect(errorsOf(recipientListSchema, BAD_RECIPIENTS)).toEqual(
      errorsOf(recipientListDocumentSchema, BAD_RECIPIENTS),
    );
    expect(errorsOf(recipientListSchema, BAD_RECIPIENTS).length).toBeGreaterThan(20);
  });

  it.each(BAD_RECIPIENTS.map((recipient, i) => [i, recipient]))(
    'when recipient case %i is checked alone, then both checks agree',
    (_i, recipient) => {
      expect(errorsOf(recipientListSchema, [recipient])).toEqual(
        errorsOf(recipientListDocumentSchema, [recipient]),
      );
    },
  );

  it('when the list is empty or not an array, then both checks agree', () => {
    for (const value of [[], {}, 'x', undefined]) {
      expect(errorsOf(recipientListSchema, value)).toEqual(errorsOf(recipientListDocumentSchema, value));
    }
  });

  it('when recipients are valid, then the list is returned unchanged', () => {
    const list = [{ phone: '+966 50 123 4567', name: 'Ann', variables: { '1': 'a' } }];
    expect(recipientListSchema.validate(list)).toEqual({ value: list });
    expect(campaignRecipientSchema.validate(list[0])).toEqual({ value: list[0] });
  });
});
