import Joi from 'joi';
import type { Role } from '../roles';

/** The dashboard's session cookie and the header that carries its CSRF token. */
export const SESSION_COOKIE = 'bm_session';
export const CSRF_HEADER = 'X-CSRF-Token';

// Lower-cased so one person cannot hold two accounts that differ by case.
const emailSchema = Joi.string().trim().lowercase().email({ tlds: false }).max(254);

export interface InviteDashboardUserRequest {
  email: string;
}
export const inviteDashboardUserSchema = Joi.object<InviteDashboardUserRequest>({
  email: emailSchema.required(),
});

/** POST /admin/v1/tenants/{tenant_id}/users: the invite link is in this answer only. */
export interface DashboardInviteDto {
  user_id: string;
  tenant_id: number;
  email: string;
  invite_url: string;
  invite_expires_at: string;
}

export interface SetPasswordRequest {
  token: string;
  password: string;
}
// NIST SP 800-63B: at least 8 characters, long passphrases allowed; 128 bounds the cost of hashing.
export const setPasswordSchema = Joi.object<SetPasswordRequest>({
  token: Joi.string()
    .pattern(/^[A-Za-z0-9_-]{43}$/, 'invite token')
    .required(),
  password: Joi.string().min(12).max(128).required(),
});

/** POST /api/auth/password-reset: ask for a reset link by mail. */
export interface PasswordResetRequest {
  email: string;
}
export const passwordResetRequestSchema = Joi.object<PasswordResetRequest>({
  email: emailSchema.required(),
});

/** POST /api/auth/password-reset's answer, the same whether or not the address belongs to anyone. */
export interface PasswordResetRequestedDto {
  accepted: true;
}

export interface ResetPasswordRequest {
  token: string;
  password: string;
}
export const resetPasswordSchema = Joi.object<ResetPasswordRequest>({
  token: Joi.string()
    .pattern(/^[A-Za-z0-9_-]{43}$/, 'reset token')
    .required(),
  password: Joi.string().min(12).max(128).required(),
});

export interface SignInRequest {
  email: string;
  password: string;
}
export const signInSchema = Joi.object<SignInRequest>({
  email: emailSchema.required(),
  password: Joi.string().min(1).max(128).required(),
});

/** A dashboard user as the session shows them. */
export interface DashboardUserDto {
  user_id: string;
  tenant_id: number;
  email: string;
  role: Role;
}

/** POST /api/auth/sign-in and GET /api/auth/session. */
export interface DashboardSessionDto {
  user: DashboardUserDto;
  /** Sent back in the X-CSRF-Token header on every state-changing request made with the session cookie. */
  csrf_token: string;
  /** When the session ends without activity (it moves on with each request). */
  idle_expires_at: string;
  /** When the session ends whatever happens. */
  absolute_expires_at: string;
}

/** POST /api/auth/set-password: the user whose password was set (as before), now also signed in. */
export interface DashboardPasswordSetDto extends DashboardUserDto, DashboardSessionDto {}

/** A tenant's API key as its list shows it; the key itself is never shown again. */
export interface ApiKeySummaryDto {
  key_id: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** What the key was named when issued; null when it was given none. */
  name: string | null;
  /** null: full tenant access. */
  role: Role | null;
}

export interface ApiKeyListDto {
  api_keys: ApiKeySummaryDto[];
}

/** A dashboard user of the tenant, as the team list shows them. */
export interface TeamMemberDto {
  user_id: string;
  email: string;
  /** invited: the user has not set a password yet. */
  status: 'active' | 'invited';
  role: Role;
  created_at: string;
}

export interface TeamMemberListDto {
  users: TeamMemberDto[];
}
