import { Router, type NextFunction, type Request, type Response } from 'express';
import {
  ok,
  passwordResetRequestSchema,
  resetPasswordSchema,
  setPasswordSchema,
  signInSchema,
  type DashboardPasswordSetDto,
  type DashboardSessionDto,
  type PasswordResetRequestedDto,
  type Role,
  type SignInRequest,
} from '@bm/contracts';
import { AppError, defineRoutes, jsonBody, validate } from '@bm/platform';
import { requestPasswordReset } from '../../domain/dashboard-users/request-password-reset.use-case';
import { resetPassword } from '../../domain/dashboard-users/reset-password.use-case';
import { setDashboardPassword } from '../../domain/dashboard-users/set-dashboard-password.use-case';
import type { MailDeps } from '../../domain/mail/mail-deps';
import type { GatewayDeps } from '../../domain/gateway-deps';
import type { LiveSession } from '../../domain/ports/sessions.port';
import {
  authenticateSession,
  type SessionRequest,
} from '../../domain/sessions/authenticate-session.use-case';
import { signIn } from '../../domain/sessions/sign-in.use-case';
import { signOut } from '../../domain/sessions/sign-out.use-case';
import {
  clearSessionCookie,
  csrfHeaderOf,
  isSameOrigin,
  sessionIdOf,
  setSessionCookie,
} from './session-cookie';
import { trustedDashboardUrlOf } from './dashboard-url';
import { changesState } from '../../domain/state-changing';

export interface DashboardAuthDeps
  extends
    Pick<GatewayDeps, 'users' | 'sessions' | 'tenants' | 'throttle' | 'resets' | 'resetThrottle'>,
    MailDeps {
  bodyLimit: string;
  /** The gateway's public origin, for reset links (PUBLIC_URL). */
  publicUrl: string | undefined;
}

/** The session facts of a request with the cookie; 401 SESSION_EXPIRED without one. */
export function sessionRequestOf(req: Request, sessionId = sessionIdOf(req)): SessionRequest {
  if (sessionId === undefined) throw new AppError('SESSION_EXPIRED');
  return {
    sessionId,
    changesState: changesState(req.method),
    csrfHeader: csrfHeaderOf(req),
    sameOrigin: isSameOrigin(req),
  };
}

const sessionDto = (s: LiveSession, role: Role): DashboardSessionDto => ({
  user: { user_id: s.userId, tenant_id: s.tenantId, email: s.email, role },
  csrf_token: s.csrfToken,
  idle_expires_at: new Date(s.idleExpiresAt).toISOString(),
  absolute_expires_at: new Date(s.absoluteExpiresAt).toISOString(),
});

// Signing in and setting a password are only ever done from the dashboard's own pages: another site cannot
// sign a browser into an account of its choosing (login CSRF) or spend an invite link it saw.
function requireSameOrigin(req: Request, _res: Response, next: NextFunction): void {
  if (!isSameOrigin(req)) throw new AppError('CSRF_FAILED');
  next();
}

function noStore(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cache-Control', 'no-store');
  next();
}

/**
 * /api/auth/**: the dashboard's set-password, password reset, sign-in, session and sign-out (CONTRACT.md).
 */
export function dashboardAuthRouter(deps: DashboardAuthDeps): Router {
  const router = Router();
  router.use('/api/auth', noStore);
  const json = jsonBody(deps.bodyLimit);
  defineRoutes(router, [
    {
      method: 'POST',
      path: '/api/auth/set-password',
      handlers: [
        requireSameOrigin,
        ...json,
        async (req, res) => {
          const input = validate(setPasswordSchema, req.body ?? {});
          const { user, session, sessionId } = await setDashboardPassword(deps, input);
          setSessionCookie(req, res, sessionId, session.absoluteExpiresAt - Date.now());
          const answer: DashboardPasswordSetDto = { ...user, ...sessionDto(session, user.role) };
          res.json(ok(answer));
        },
      ],
    },
    {
      method: 'POST',
      path: '/api/auth/password-reset',
      handlers: [
        requireSameOrigin,
        ...json,
        async (req, res) => {
          const { email } = validate(passwordResetRequestSchema, req.body ?? {});
          const wait = await deps.resetThrottle.attempt(email, req.ip ?? 'unknown');
          if (wait !== undefined) {
            res.setHeader('Retry-After', String(wait));
            throw new AppError('RATE_LIMIT_EXCEEDED', 'Too many password reset requests; try again later', {
              reset_seconds: wait,
            });
          }
          // Answered before the address is even looked up: neither the answer nor its timing tells whether
          // the address belongs to a user. The lookup and the mail go on after (they never fail).
          void requestPasswordReset(deps, {
            email,
            dashboardUrl: trustedDashboardUrlOf(req, deps.publicUrl),
          });
          const answer: PasswordResetRequestedDto = { accepted: true };
          res.status(202).json(ok(answer));
        },
      ],
    },
    {
      method: 'POST',
      path: '/api/auth/reset-password',
      handlers: [
        requireSameOrigin,
        ...json,
        async (req, res) => {
          const input = validate(resetPasswordSchema, req.body ?? {});
          const { session, sessionId, role } = await resetPassword(deps, input);
          setSessionCookie(req, res, sessionId, session.absoluteExpiresAt - Date.now());
          res.json(ok(sessionDto(session, role)));
        },
      ],
    },
    {
      method: 'POST',
      path: '/api/auth/sign-in',
      handlers: [
        requireSameOrigin,
        ...json,
        async (req, res) => {
          const input: SignInRequest = validate(signInSchema, req.body ?? {});
          const outcome = await signIn(deps, { ...input, ip: req.ip ?? 'unknown' });
          if (outcome.kind === 'throttled') {
            res.setHeader('Retry-After', String(outcome.retryAfterSeconds));
            throw new AppError('RATE_LIMIT_EXCEEDED', 'Too many sign-in attempts; try again later', {
              reset_seconds: outcome.retryAfterSeconds,
            });
          }
          const { session, sessionId, role } = outcome;
          setSessionCookie(req, res, sessionId, session.absoluteExpiresAt - Date.now());
          res.json(ok(sessionDto(session, role)));
        },
      ],
    },
    {
      method: 'GET',
      path: '/api/auth/session',
      handlers: [
        async (req, res) => {
          const { session, role } = await authenticateSession(deps, sessionRequestOf(req));
          res.json(ok(sessionDto(session, role)));
        },
      ],
    },
    {
      method: 'POST',
      path: '/api/auth/sign-out',
      handlers: [
        async (req, res) => {
          const sessionId = sessionIdOf(req);
          if (sessionId !== undefined) await signOut(deps, sessionRequestOf(req, sessionId));
          clearSessionCookie(req, res);
          res.json(ok({ signed_out: true }));
        },
      ],
    },
  ]);
  return router;
}
