import { createBmClient } from '@bm/client';

let csrfToken: string | undefined;

/** Remembers the session's CSRF token (from sign-in or GET /api/auth/session) for state-changing calls. */
export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

/** The typed client on the gateway that served this page: same origin, the session cookie, the CSRF header. */
export const api = createBmClient({ baseUrl: '', csrfToken: () => csrfToken });
