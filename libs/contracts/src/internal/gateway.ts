import Joi from 'joi';
import { internalEndpoint } from './endpoint';
import { dashboardUserIdSchema } from '../schemas/conversations';

/*
 * The gateway's internal endpoints: it keeps the tenants' dashboard users, and messaging asks it whether a
 * conversation's assignee is one of the tenant's (inside the client's request, so over HTTP, not by event).
 */

export interface DashboardUserParams extends Record<string, string> {
  tenantId: string;
  userId: string;
}

const dashboardUser = internalEndpoint<DashboardUserParams, undefined, { user_id: string }>({
  method: 'GET',
  path: '/internal/v1/tenants/:tenantId/dashboard-users/:userId',
  params: Joi.object<DashboardUserParams>({
    tenantId: Joi.string()
      .pattern(/^\d{1,15}$/, 'tenant id')
      .required(),
    userId: dashboardUserIdSchema.required(),
  }),
});

/** The gateway's internal endpoints, by what they do. */
export const GATEWAY_ENDPOINTS = { dashboardUser } as const;
