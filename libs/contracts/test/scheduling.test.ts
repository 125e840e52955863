import { canonicalTimeZone, resolveScheduledAt, scheduledAtSchema, timezoneSchema } from '@bm/contracts';

const iso = (value: string, zone?: string): string | undefined =>
  resolveScheduledAt(value, zone)?.toISOString();

describe('resolveScheduledAt', () => {
  it('when scheduled_at has no offset and no timezone, then it is read as UTC', () => {
    expect(iso('2026-11-22T09:30:00')).toBe('2026-11-22T09:30:00.000Z');
  });

  it('when scheduled_at has no offset and the timezone is Asia/Riyadh, then it is read as UTC+3', () => {
    expect(iso('2026-11-22T12:30:00', 'Asia/Riyadh')).toBe('2026-11-22T09:30:00.000Z');
    // Riyadh has no DST, so summer gives the same offset.
    expect(iso('2026-07-01T12:30', 'Asia/Riyadh')).toBe('2026-07-01T09:30:00.000Z');
  });

  it('when scheduled_at carries Z or an offset, then the timezone is ignored', () => {
    expect(iso('2026-11-22T09:30:00Z', 'Asia/Riyadh')).toBe('2026-11-22T09:30:00.000Z');
    expect(iso('2026-11-22T12:30:00+03:00', 'America/New_York')).toBe('2026-11-22T09:30:00.000Z');
    expect(iso('2026-11-22T04:30:00-0500', 'Asia/Riyadh')).toBe('2026-11-22T09:30:00.000Z');
    expect(iso('2026-11-22T15:00:00.250+05:30')).toBe('2026-11-22T09:30:00.250Z');
  });

  it('when New York time is in standard and in daylight time, then the matching offset is applied', () => {
    expect(iso('2026-01-15T09:00:00', 'America/New_York')).toBe('2026-01-15T14:00:00.000Z');
    expect(iso('2026-07-15T09:00:00', 'America/New_York')).toBe('2026-07-15T13:00:00.000Z');
  });

  it('when the wall-clock time falls in the March DST gap, then date-fns-tz applies the post-change offset', () => {
    // 02:30 does not exist on 2026-03-08 in New York (02:00 EST jumps to 03:00 EDT). fromZonedTime reads it
    // with EDT (-04:00), which lands on 06:30Z, i.e. 01:30 EST: half an hour before the gap, not after it.
    expect(iso('2026-03-08T02:30:00', 'America/New_York')).toBe('2026-03-08T06:30:00.000Z');
  });

  it('when the wall-clock time happens twice in the November overlap, then the first occurrence (EDT) wins', () => {
    // 01:30 on 2026-11-01 happens at 05:30Z (EDT) and again at 06:30Z (EST). fromZonedTime alone answers either
    // one depending on the host's TZ (06:30Z under TZ=Asia/Tokyo); resolveScheduledAt always takes the first.
    expect(iso('2026-11-01T01:30:00', 'America/New_York')).toBe('2026-11-01T05:30:00.000Z');
    // Berlin 2026-10-25T02:30 happens at 00:30Z (CEST) and 01:30Z (CET); fromZonedTime on a UTC host says 01:30Z.
    expect(iso('2026-10-25T02:30:00', 'Europe/Berlin')).toBe('2026-10-25T00:30:00.000Z');
  });

  it.each([
    '2026-02-30T10:00:00',
    '2026-13-01T10:00:00',
    '2026-11-22T24:00:00',
    '2026-11-22',
    'tomorrow',
    '',
  ])('when scheduled_at is %p, then it resolves to null', (value) => {
    expect(resolveScheduledAt(value)).toBeNull();
  });

  it('when a leap day exists, then it is accepted, and when it does not, then it is refused', () => {
    expect(iso('2028-02-29T10:00:00Z')).toBe('2028-02-29T10:00:00.000Z');
    expect(resolveScheduledAt('2026-02-29T10:00:00Z')).toBeNull();
  });

  it('when the timezone is unknown and scheduled_at has no offset, then it resolves to null', () => {
    expect(resolveScheduledAt('2026-11-22T09:30:00', 'Mars/Olympus')).toBeNull();
  });
});

describe('scheduling schemas', () => {
  it('when scheduled_at is valid, then it is kept exactly as written', () => {
    expect(scheduledAtSchema.validate('2026-11-22T12:30:00')).toEqual({ value: '2026-11-22T12:30:00' });
  });

  it('when scheduled_at is not an ISO date and time, then the error shows the expected form', () => {
    expect(scheduledAtSchema.label('scheduled_at').validate('22/11/2026 12:30').error?.message).toMatch(
      /must be an ISO 8601 date and time/,
    );
    expect(scheduledAtSchema.validate('2026-02-30T10:00:00').error).toBeDefined();
  });

  it('when the timezone is spelled in another case, then it is converted to the canonical IANA name', () => {
    expect(timezoneSchema.validate('asia/riyadh')).toEqual({ value: 'Asia/Riyadh' });
    expect(canonicalTimeZone('UTC')).toBe('UTC');
  });

  it.each(['Mars/Olympus', '+03:00', 'GMT+3 please'])(
    'when the timezone is %p, then it is refused',
    (zone) => {
      expect(timezoneSchema.validate(zone).error?.message).toMatch(/must be an IANA time zone/);
    },
  );
});
