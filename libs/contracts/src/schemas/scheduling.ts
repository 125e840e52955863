import Joi from 'joi';
import { fromZonedTime } from 'date-fns-tz';

/**
 * ISO 8601 date and time, seconds and fraction optional, with an optional offset (`Z`, `±HH`, `±HH:MM`, `±HHMM`).
 * A date alone is refused: a send is planned for an instant, and midnight is rarely what a client means.
 */
export const ISO_DATETIME_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** Message for a scheduled_at that is not in the future; the check itself needs a clock, so services make it. */
export const SCHEDULED_AT_PAST_MESSAGE = 'scheduled_at must be in the future';

interface DateTimeParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  /** Minutes east of UTC, or null when the string carries no offset (wall-clock time). */
  offsetMinutes: number | null;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
}

function parseOffset(offset: string): number | null {
  if (offset.toUpperCase() === 'Z') return 0;
  const digits = offset.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 23 || minutes > 59) return null;
  return (offset.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
}

// The pattern alone lets through 2026-02-30 or 25:00; a real calendar check keeps such values from being rolled
// over silently into another day.
function parseDateTime(value: string): DateTimeParts | null {
  const m = ISO_DATETIME_PATTERN.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  const millisecond = m[7] === undefined ? 0 : Number(m[7].padEnd(3, '0').slice(0, 3));
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const offsetMinutes = m[8] === undefined ? null : parseOffset(m[8]);
  if (m[8] !== undefined && offsetMinutes === null) return null;
  return { year, month, day, hour, minute, second, millisecond, offsetMinutes };
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

// Zones already seen valid, keyed in lower case (zone names are case-insensitive): only valid names are kept,
// so client input cannot grow the map beyond the zone list.
const canonicalZones = new Map<string, string>();

/** The canonical IANA name of a time zone (`asia/riyadh` → `Asia/Riyadh`), or null when it is not one. */
export function canonicalTimeZone(timeZone: string): string | null {
  const key = timeZone.toLowerCase();
  const known = canonicalZones.get(key);
  if (known !== undefined) return known;
  // Newer engines accept bare offsets such as +03:00 as zones; the API promises IANA names only.
  if (!/^[A-Za-z]/.test(timeZone)) return null;
  try {
    const canonical = new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
    canonicalZones.set(key, canonical);
    return canonical;
  } catch {
    return null;
  }
}

const DAY_MS = 86_400_000;
const zoneFormatters = new Map<string, Intl.DateTimeFormat>();

// Offset of a zone at an instant, from Intl alone: date-fns-tz's own helpers go through the host's local time
// and so answer differently on hosts in different zones.
function offsetAt(zone: string, instant: number): number {
  let format = zoneFormatters.get(zone);
  if (!format) {
    const numeric = 'numeric' as const;
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: numeric,
      month: numeric,
      day: numeric,
      hour: numeric,
      minute: numeric,
      second: numeric,
    });
    zoneFormatters.set(zone, format);
  }
  const part = Object.fromEntries(
    format.formatToParts(new Date(instant)).map((p) => [p.type, Number(p.value)]),
  );
  const wallClock = Date.UTC(part.year, part.month - 1, part.day, part.hour, part.minute, part.second);
  return wallClock - (instant - (((instant % 1000) + 1000) % 1000));
}

/**
 * The instant a `scheduled_at` names, per CONTRACT.md: with `Z` or an offset it is absolute and `timeZone` is
 * ignored; without one it is wall-clock time in `timeZone` (default UTC), resolved by date-fns-tz
 * `fromZonedTime`. Null when either value is invalid. A time in a spring-forward gap takes the offset in force
 * after the change, as fromZonedTime does on every host (New York 2026-03-08T02:30 → 06:30Z, i.e. 01:30 EST).
 * A time repeated in autumn takes its first occurrence (New York 2026-11-01T01:30 → 05:30Z, EDT): fromZonedTime
 * alone picks either occurrence depending on the host's own time zone, so the earlier one is chosen here.
 */
export function resolveScheduledAt(scheduledAt: string, timeZone = 'UTC'): Date | null {
  const parts = parseDateTime(scheduledAt);
  if (!parts) return null;
  const { year, month, day, hour, minute, second, millisecond, offsetMinutes } = parts;
  const wallClock = new Date(0);
  // setUTCFullYear keeps years below 100 as written, which Date.UTC would move into the 1900s.
  wallClock.setUTCFullYear(year, month - 1, day);
  wallClock.setUTCHours(hour, minute, second, millisecond);
  const local = wallClock.getTime();
  if (offsetMinutes !== null) return new Date(local - offsetMinutes * 60_000);
  const zone = canonicalTimeZone(timeZone);
  if (zone === null) return null;
  const text = `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}.${pad(millisecond, 3)}`;
  const resolved = fromZonedTime(text, zone).getTime();
  if (Number.isNaN(resolved)) return null;
  // Offset changes are months apart, so the offsets a day before and after are the only two in play.
  const candidates = [
    resolved,
    local - offsetAt(zone, local - DAY_MS),
    local - offsetAt(zone, local + DAY_MS),
  ];
  const valid = candidates.filter((instant) => instant + offsetAt(zone, instant) === local);
  return new Date(valid.length > 0 ? Math.min(...valid) : resolved);
}

const SCHEDULED_AT_FORMAT_MESSAGE =
  '{{#label}} must be an ISO 8601 date and time, e.g. 2026-11-22T09:30:00Z or 2026-11-22T12:30:00';

/** `scheduled_at` as sent: the string is kept as written because its meaning depends on `timezone`. */
export const scheduledAtSchema = Joi.string()
  .max(40)
  .pattern(ISO_DATETIME_PATTERN)
  // The pattern (kept for the OpenAPI document) reports malformed text; this catches impossible dates only.
  .custom((value: string, helpers) =>
    !ISO_DATETIME_PATTERN.test(value) || parseDateTime(value) ? value : helpers.error('scheduledAt.format'),
  )
  .messages({
    'string.pattern.base': SCHEDULED_AT_FORMAT_MESSAGE,
    'scheduledAt.format': SCHEDULED_AT_FORMAT_MESSAGE,
  })
  .description(
    'ISO 8601 date and time of a deferred send; must be in the future. With Z or an offset it is absolute ' +
      'and timezone is ignored; without one it is wall-clock time in timezone.',
  )
  .example('2026-11-22T12:30:00');

/** `timezone`: an IANA name, converted to its canonical spelling. */
export const timezoneSchema = Joi.string()
  .max(64)
  .custom((value: string, helpers) => canonicalTimeZone(value) ?? helpers.error('timezone.invalid'))
  .messages({ 'timezone.invalid': '{{#label}} must be an IANA time zone such as Asia/Riyadh or UTC' })
  .description('IANA time zone used to read a scheduled_at without offset; default UTC')
  .example('Asia/Riyadh');

/** The scheduling fields every send and campaign accepts. */
export const schedulingKeys = {
  scheduled_at: scheduledAtSchema,
  timezone: timezoneSchema,
};
