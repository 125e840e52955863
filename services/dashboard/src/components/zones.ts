/** Every IANA time zone the browser knows, for a schedule's zone picker; the viewer's own zone first chosen. */
export const ZONES: string[] = (() => {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return ['UTC'];
  }
})();
export const LOCAL_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** A datetime-local value as the API's wall-clock scheduled_at (seconds added when the input left them out). */
export const wallClock = (local: string) => (local.length === 16 ? `${local}:00` : local);
