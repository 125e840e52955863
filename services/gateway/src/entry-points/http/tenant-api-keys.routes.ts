import type { Response } from 'express';
import { ok } from '@bm/contracts';
import type { RouteDefinition } from '@bm/platform';
import { issueApiKey } from '../../domain/api-keys/issue-api-key.use-case';
import { listTenantApiKeys } from '../../domain/api-keys/list-tenant-api-keys.use-case';
import { revokeTenantApiKey } from '../../domain/api-keys/revoke-api-key.use-case';
import { listTeam } from '../../domain/team/list-team.use-case';
import type { GatewayDeps } from '../../domain/gateway-deps';
import { keyIdOf } from './path-params';

export type TenantApiKeyDeps = Pick<GatewayDeps, 'tenants' | 'keys' | 'keyUsage' | 'invalidation' | 'users'>;

// Set by the authentication in front of every /api/v1 route: the tenant of the key or session.
const tenantOf = (res: Response): number => res.locals.tenantId as number;

/** /api/v1/api-keys and /api/v1/users: the authenticated tenant's own keys and team, never another tenant's. */
export function tenantApiKeyRoutes(deps: TenantApiKeyDeps): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/api/v1/users',
      handlers: [async (_req, res) => res.json(ok(await listTeam(deps, tenantOf(res))))],
    },
    {
      method: 'GET',
      path: '/api/v1/api-keys',
      handlers: [async (_req, res) => res.json(ok(await listTenantApiKeys(deps, tenantOf(res))))],
    },
    {
      method: 'POST',
      path: '/api/v1/api-keys',
      handlers: [async (_req, res) => res.status(201).json(ok(await issueApiKey(deps, tenantOf(res))))],
    },
    {
      method: 'DELETE',
      path: '/api/v1/api-keys/:keyId',
      handlers: [
        async (req, res) => res.json(ok(await revokeTenantApiKey(deps, tenantOf(res), keyIdOf(req)))),
      ],
    },
  ];
}
