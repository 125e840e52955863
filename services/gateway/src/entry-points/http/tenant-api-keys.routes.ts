import type { Response } from 'express';
import { issueApiKeySchema, ok, type Role } from '@bm/contracts';
import { jsonBody, validate, type RouteDefinition } from '@bm/platform';
import { issueTenantApiKey } from '../../domain/api-keys/issue-tenant-api-key.use-case';
import { listTenantApiKeys } from '../../domain/api-keys/list-tenant-api-keys.use-case';
import { revokeTenantApiKey } from '../../domain/api-keys/revoke-api-key.use-case';
import type { GatewayDeps } from '../../domain/gateway-deps';
import { keyIdOf } from './path-params';

export interface TenantApiKeyDeps extends Pick<
  GatewayDeps,
  'tenants' | 'keys' | 'keyUsage' | 'invalidation'
> {
  bodyLimit: string;
}

// Set by the authentication in front of every /api/v1 route: the tenant of the key or session, and its role
// (undefined: a full-access key).
export const tenantOf = (res: Response): number => res.locals.tenantId as number;
export const roleOf = (res: Response): Role | undefined => res.locals.role as Role | undefined;

/** /api/v1/api-keys: the authenticated tenant's own keys, never another tenant's. */
export function tenantApiKeyRoutes(deps: TenantApiKeyDeps): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/api/v1/api-keys',
      handlers: [async (_req, res) => res.json(ok(await listTenantApiKeys(deps, tenantOf(res))))],
    },
    {
      method: 'POST',
      path: '/api/v1/api-keys',
      handlers: [
        ...jsonBody(deps.bodyLimit),
        async (req, res) => {
          const request = validate(issueApiKeySchema, req.body ?? {});
          const issued = await issueTenantApiKey(deps, {
            tenantId: tenantOf(res),
            issuerRole: roleOf(res),
            request,
          });
          res.status(201).json(ok(issued));
        },
      ],
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
