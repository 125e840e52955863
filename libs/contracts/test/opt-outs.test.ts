import { addOptOutSchema, listOptOutsQuerySchema, optOutIntent, optOutPhoneParamSchema } from '@bm/contracts';
import { validate } from '@bm/platform';

describe('optOutIntent', () => {
  it.each([
    'STOP',
    'stop',
    '  Stop  ',
    'STOPALL',
    'unsubscribe',
    'OPT OUT',
    'opt out',
    'Opt   Out',
    '\nSTOP\n',
  ])('when the whole text is %p, then it is an opt-out', (text) => {
    expect(optOutIntent(text)).toBe('opt_out');
  });

  it.each(['START', 'start', ' Subscribe '])('when the whole text is %p, then it is an opt-in', (text) => {
    expect(optOutIntent(text)).toBe('opt_in');
  });

  it.each(['please stop', 'STOP!', 'OPTOUT', 'stop all', 'starting', '', null, undefined])(
    'when the text is %p, then it changes nothing',
    (text) => {
      expect(optOutIntent(text)).toBeNull();
    },
  );
});

describe('opt-out schemas', () => {
  it('when a phone is added, then it is stored normalized', () => {
    expect(validate(addOptOutSchema, { phone: '+966 (50) 123-4567' })).toEqual({ phone: '966501234567' });
    expect(validate(optOutPhoneParamSchema, '+16505551234')).toBe('16505551234');
  });

  it('when the list query is empty, then the published pagination defaults apply', () => {
    expect(validate(listOptOutsQuerySchema, {})).toEqual({ page: 1, per_page: 50 });
  });
});
