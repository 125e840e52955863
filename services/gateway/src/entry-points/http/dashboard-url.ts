import type { Request } from 'express';

const trimmed = (publicUrl: string) => `${publicUrl.replace(/\/+$/, '')}/dashboard`;

/** Where an invite link points (…/dashboard): PUBLIC_URL, or else the origin the operator called. */
export function dashboardUrlOf(req: Request, publicUrl: string | undefined): string {
  if (publicUrl !== undefined) return trimmed(publicUrl);
  const proto = req.get('x-forwarded-proto')?.split(',')[0]?.trim() ?? req.protocol;
  const host = req.get('x-forwarded-host')?.split(',')[0]?.trim() ?? req.get('host');
  return `${proto}://${host}/dashboard`;
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * Where a reset link an anonymous request asked for may point: PUBLIC_URL, or else, on a gateway run locally,
 * the loopback origin called. Anyone can name any Host, so another host is never trusted (a link to it would
 * hand the victim's token to that host); undefined then.
 */
export function trustedDashboardUrlOf(req: Request, publicUrl: string | undefined): string | undefined {
  if (publicUrl !== undefined) return trimmed(publicUrl);
  const host = req.get('host');
  if (host === undefined) return undefined;
  try {
    const url = new URL(`${req.protocol}://${host}`);
    return LOOPBACK.test(url.hostname) ? `${url.origin}/dashboard` : undefined;
  } catch {
    return undefined;
  }
}
