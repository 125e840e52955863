/** A UTC instant of the API in the viewer's locale and time zone; a dash when absent. */
export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/** `+14155550123` from the API's digits. */
export const phone = (digits: string) => (digits.startsWith('+') ? digits : `+${digits}`);

/** A message's recipient: their phone, else the user id it was sent to. */
export const recipient = (m: { to_phone: string | null; to_user_id: string | null }) =>
  m.to_phone ? phone(m.to_phone) : (m.to_user_id ?? 'unknown customer');

/** How a customer is shown: their phone, else their user id (a customer with a username may have no phone). */
export const customer = (c: { customer_phone: string | null; customer_user_id?: string | null }) =>
  c.customer_phone ? phone(c.customer_phone) : (c.customer_user_id ?? 'unknown customer');
