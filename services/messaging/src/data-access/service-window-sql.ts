import { SERVICE_WINDOW_HOURS } from '../domain/lifecycle/message-lifecycle';

/**
 * The service window rule (SERVICE_WINDOW_HOURS, the domain's) as a SQL condition on a `service_windows` row
 * aliased `alias`: the customer's last message is recent enough. Built from the domain's constant, never from a
 * request, so the statement's text stays the same and its prepared plan is kept.
 */
export function serviceWindowOpenSql(alias: string): string {
  return `${alias}.last_inbound_at > now() - ${Math.trunc(SERVICE_WINDOW_HOURS)} * interval '1 hour'`;
}
