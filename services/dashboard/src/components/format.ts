/** A UTC instant of the API in the viewer's locale and time zone; a dash when absent. */
export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** `+14155550123` from the API's digits. */
export const phone = (digits: string) => (digits.startsWith('+') ? digits : `+${digits}`);
