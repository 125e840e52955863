import type { Request, Response } from 'express';
import { parse, serialize } from 'cookie';
import { CSRF_HEADER, SESSION_COOKIE } from '@bm/contracts';

/** The session id the request's cookie carries, if any. */
export function sessionIdOf(req: Request): string | undefined {
  const header = req.get('cookie');
  if (header === undefined) return undefined;
  const value = parse(header)[SESSION_COOKIE];
  return value === undefined || value === '' ? undefined : value;
}

/** Whether the browser reached us over HTTPS, directly or through a proxy that says so. */
function overHttps(req: Request): boolean {
  const forwarded = req.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  return req.protocol === 'https' || forwarded === 'https';
}

/**
 * Same origin when the browser says so (`Sec-Fetch-Site: same-origin`) or `Origin` names the host the request
 * was sent to (the proxy's forwarded host when there is one). Neither present is not same origin: every browser
 * this dashboard supports sends one of them on a state-changing request.
 */
export function isSameOrigin(req: Request): boolean {
  if (req.get('sec-fetch-site')?.toLowerCase() === 'same-origin') return true;
  const origin = req.get('origin');
  if (origin === undefined || origin === 'null') return false;
  const host = req.get('x-forwarded-host')?.split(',')[0]?.trim() ?? req.get('host');
  try {
    return new URL(origin).host.toLowerCase() === host?.toLowerCase();
  } catch {
    return false;
  }
}

export function csrfHeaderOf(req: Request): string | undefined {
  return req.get(CSRF_HEADER);
}

/** HttpOnly (no script reads it), SameSite=Lax, Secure over HTTPS; the browser drops it at the absolute end. */
export function setSessionCookie(req: Request, res: Response, sessionId: string, maxAgeMs: number): void {
  res.append(
    'Set-Cookie',
    serialize(SESSION_COOKIE, sessionId, {
      httpOnly: true,
      sameSite: 'lax',
      secure: overHttps(req),
      path: '/',
      // Rounded: the milliseconds spent between creating the session and answering must not cut a second off.
      maxAge: Math.round(maxAgeMs / 1000),
    }),
  );
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.append(
    'Set-Cookie',
    serialize(SESSION_COOKIE, '', {
      httpOnly: true,
      sameSite: 'lax',
      secure: overHttps(req),
      path: '/',
      maxAge: 0,
    }),
  );
}
