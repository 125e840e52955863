import Joi from 'joi';
import { ROLES, type Role } from '../roles';
import { paginationQuerySchema, type Pagination } from './common';

const roleSchema = Joi.string().valid(...ROLES);
// As the operator's invite and sign-in read it: lower-cased, so one person cannot hold two accounts.
const emailSchema = Joi.string().trim().lowercase().email({ tlds: false }).max(254);

/** POST /api/v1/api-keys: both optional; without a role, a session's key gets the session's role. */
export interface IssueApiKeyRequest {
  name?: string;
  role?: Role;
}
export const issueApiKeySchema = Joi.object<IssueApiKeyRequest>({
  name: Joi.string().trim().min(1).max(100),
  role: roleSchema,
});

/** POST /api/v1/users: invite a colleague with a role. */
export interface InviteTeamMemberRequest {
  email: string;
  role: Role;
}
export const inviteTeamMemberSchema = Joi.object<InviteTeamMemberRequest>({
  email: emailSchema.required(),
  role: roleSchema.required(),
});

/** PATCH /api/v1/users/{user_id}. */
export interface UpdateTeamMemberRequest {
  role: Role;
}
export const updateTeamMemberSchema = Joi.object<UpdateTeamMemberRequest>({ role: roleSchema.required() });

/** POST /api/v1/users answer: the invite link is in this answer only. */
export interface TeamInviteDto {
  user_id: string;
  email: string;
  role: Role;
  invite_url: string;
  invite_expires_at: string;
}

/** DELETE /api/v1/users/{user_id} answer. */
export interface TeamMemberRemovedDto {
  user_id: string;
  removed: true;
}

export interface AuditLogQuery {
  actor?: string;
  action?: string;
  from?: Date;
  to?: Date;
  page: number;
  per_page: number;
}

/** GET /api/v1/audit-log query. */
export const auditLogQuerySchema = Joi.object<AuditLogQuery>({
  actor: Joi.string()
    .trim()
    .max(254)
    .description("A user's id or email, or an API key's id: that actor's changes only"),
  action: Joi.string()
    .pattern(/^[A-Za-z]{1,64}$/, 'operationId')
    .description('An operationId (e.g. issueApiKey): that operation only'),
  from: Joi.date().iso().description('At or after this instant (ISO 8601)'),
  to: Joi.date().iso().description('Before this instant (ISO 8601)'),
  ...paginationQuerySchema,
});

/** One state-changing request, as the audit log keeps it (never its body). */
export interface AuditLogEntryDto {
  id: string;
  actor: { type: 'user'; user_id: string; email: string } | { type: 'api_key'; key_id: string };
  action: string;
  method: string;
  path: string;
  /** The ids in the path, by the route's parameter names. */
  target: Record<string, string>;
  status: number;
  ip: string | null;
  request_id: string | null;
  created_at: string;
}

/** GET /api/v1/audit-log answer: newest first. */
export interface AuditLogListDto {
  entries: AuditLogEntryDto[];
  pagination: Pagination;
}
