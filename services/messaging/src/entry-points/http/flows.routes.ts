import type { Router } from 'express';
import {
  listFlowSessionsQuerySchema,
  listFlowsQuerySchema,
  ok,
  saveFlowSchema,
  ulidSchema,
} from '@bm/contracts';
import { AppError, defineRoutes, tenantCreateRoute, tenantListRoute, tenantOf, validate } from '@bm/platform';
import { createFlow } from '../../domain/flows/create-flow.use-case';
import { getFlow } from '../../domain/flows/get-flow.use-case';
import { listFlowSessions } from '../../domain/flows/list-flow-sessions.use-case';
import { listFlows } from '../../domain/flows/list-flows.use-case';
import { setFlowStatus } from '../../domain/flows/set-flow-status.use-case';
import { updateFlow } from '../../domain/flows/update-flow.use-case';
import type { MessagingDeps } from '../../domain/messaging-deps';

/** A flow id from the path; anything but a ULID names no flow. */
function flowIdOf(value: unknown): string {
  if (ulidSchema.validate(value).error) throw new AppError('FLOW_NOT_FOUND');
  return String(value);
}

/** Conversation flows: create, list, read, replace (a new version), activate, deactivate, sessions. */
export function flowRoutes(router: Router, deps: MessagingDeps): void {
  defineRoutes(router, [
    tenantCreateRoute('/api/v1/flows', saveFlowSchema, (tenantId, request) =>
      createFlow(deps, tenantId, request),
    ),
    tenantListRoute('/api/v1/flows', listFlowsQuerySchema, (tenantId, query) =>
      listFlows(deps, tenantId, query),
    ),
    {
      method: 'GET',
      path: '/api/v1/flows/:id',
      handlers: [
        async (req, res) => res.json(ok(await getFlow(deps, tenantOf(res), flowIdOf(req.params.id)))),
      ],
    },
    {
      method: 'PUT',
      path: '/api/v1/flows/:id',
      handlers: [
        async (req, res) => {
          const id = flowIdOf(req.params.id);
          const request = validate(saveFlowSchema, req.body ?? {});
          res.json(ok(await updateFlow(deps, tenantOf(res), id, request)));
        },
      ],
    },
    {
      method: 'POST',
      path: '/api/v1/flows/:id/activate',
      handlers: [
        async (req, res) =>
          res.json(ok(await setFlowStatus(deps, tenantOf(res), flowIdOf(req.params.id), 'active'))),
      ],
    },
    {
      method: 'POST',
      path: '/api/v1/flows/:id/deactivate',
      handlers: [
        async (req, res) =>
          res.json(ok(await setFlowStatus(deps, tenantOf(res), flowIdOf(req.params.id), 'inactive'))),
      ],
    },
    {
      method: 'GET',
      path: '/api/v1/flows/:id/sessions',
      handlers: [
        async (req, res) => {
          const id = flowIdOf(req.params.id);
          const query = validate(listFlowSessionsQuerySchema, req.query);
          res.json(ok(await listFlowSessions(deps, tenantOf(res), id, query)));
        },
      ],
    },
  ]);
}
