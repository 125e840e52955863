import type { Router } from 'express';
import { exportMessagesQuerySchema, listMessagesQuerySchema, ok, sendMessageSchema } from '@bm/contracts';
import {
  defineRoutes,
  idempotencyKeyOf,
  sendIdempotentAnswer,
  streamCsv,
  tenantListRoute,
  tenantOf,
  validate,
} from '@bm/platform';
import type { MessagingDeps } from '../../domain/messaging-deps';
import { cancelMessage } from '../../domain/messages/cancel-message.use-case';
import { exportMessages } from '../../domain/messages/export-messages.use-case';
import { getMessage } from '../../domain/messages/get-message.use-case';
import { listMessages } from '../../domain/messages/list-messages.use-case';
import { sendMessage } from '../../domain/sending/send-message.use-case';

/** Single messages: send, read one, list, cancel. */
export function messageRoutes(router: Router, deps: MessagingDeps): void {
  defineRoutes(router, [
    {
      method: 'POST',
      path: '/api/v1/messages/send',
      handlers: [
        async (req, res) => {
          const tenantId = tenantOf(res);
          const key = idempotencyKeyOf(req);
          const body: unknown = req.body ?? {};
          const request = validate(sendMessageSchema, body);
          const answer = await sendMessage(deps, tenantId, request, body, key);
          sendIdempotentAnswer(res, answer);
        },
      ],
    },
    tenantListRoute('/api/v1/messages', listMessagesQuerySchema, (tenantId, query) =>
      listMessages(deps, tenantId, query),
    ),
    // Before `:id`: `export` is no message's id.
    {
      method: 'GET',
      path: '/api/v1/messages/export',
      handlers: [
        async (req, res) => {
          const query = validate(exportMessagesQuerySchema, req.query);
          const { filename, header, pages } = exportMessages(deps, tenantOf(res), query);
          await streamCsv(res, filename, header, pages);
        },
      ],
    },
    {
      method: 'GET',
      path: '/api/v1/messages/:id',
      handlers: [
        async (req, res) => res.json(ok(await getMessage(deps, tenantOf(res), String(req.params.id)))),
      ],
    },
    {
      method: 'POST',
      path: '/api/v1/messages/:id/cancel',
      handlers: [
        async (req, res) => res.json(ok(await cancelMessage(deps, tenantOf(res), String(req.params.id)))),
      ],
    },
  ]);
}
