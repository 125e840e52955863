/** A UTC instant of the API in the viewer's locale and time zone; a dash when absent. */
export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** `+14155550123` from the API's digits. */
export const phone = (digits: string) => (digits.startsWith('+') ? digits : `+${digits}`);

/** How a customer is shown: their phone, else their user id (a customer with a username may have no phone). */
export const customer = (digits: string | null, userId?: string | null) =>
  digits ? phone(digits) : (userId ?? 'unknown customer');
