import type { Request, Response } from 'express';
import { ok, ulidSchema } from '@bm/contracts';
import { AppError, type RouteDefinition } from '@bm/platform';
import type { ApiKeyRepository } from '../../data-access/api-key.repository';
import type { KeyUsageStore } from '../../data-access/key-usage.store';
import type { TenantRepository } from '../../data-access/tenant.repository';
import type { AuthInvalidation } from '../../domain/gateway-ports';
import { issueApiKey } from '../../domain/manage-api-keys.use-case';
import { listTenantApiKeys, revokeTenantApiKey } from '../../domain/manage-tenant-api-keys.use-case';

export interface TenantApiKeyDeps {
  tenants: TenantRepository;
  keys: ApiKeyRepository;
  usage: KeyUsageStore;
  invalidation: AuthInvalidation;
}

// Set by the authentication in front of every /api/v1 route: the tenant of the key or session.
const tenantOf = (res: Response): number => res.locals.tenantId as number;

/** The `:keyId` of the path; one not shaped like a key id names no key (404). */
export function keyIdOf(req: Request): string {
  const keyId = String(req.params.keyId);
  if (ulidSchema.validate(keyId).error) throw new AppError('API_KEY_NOT_FOUND');
  return keyId;
}

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
        async (_req, res) =>
          res.status(201).json(ok(await issueApiKey(deps.tenants, deps.keys, tenantOf(res)))),
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
