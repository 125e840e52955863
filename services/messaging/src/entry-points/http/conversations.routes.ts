import type { Router } from 'express';
import {
  conversationMessagesQuerySchema,
  conversationReplySchema,
  listConversationsQuerySchema,
  ok,
  updateConversationSchema,
} from '@bm/contracts';
import {
  defineRoutes,
  idempotencyKeyOf,
  sendIdempotentAnswer,
  tenantListRoute,
  tenantOf,
  validate,
} from '@bm/platform';
import { getConversation } from '../../domain/conversations/get-conversation.use-case';
import { listConversationMessages } from '../../domain/conversations/list-conversation-messages.use-case';
import { listConversations } from '../../domain/conversations/list-conversations.use-case';
import { markConversationRead } from '../../domain/conversations/mark-conversation-read.use-case';
import { replyToConversation } from '../../domain/conversations/reply-to-conversation.use-case';
import { updateConversation } from '../../domain/conversations/update-conversation.use-case';
import type { MessagingDeps } from '../../domain/messaging-deps';

// The use cases answer 404 for anything but a ULID of the tenant's.
const idOf = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The live-chat inbox: conversations, their threads, replies, status and assignee, read marks. */
export function conversationRoutes(router: Router, deps: MessagingDeps): void {
  defineRoutes(router, [
    tenantListRoute('/api/v1/conversations', listConversationsQuerySchema, (tenantId, query) =>
      listConversations(deps, tenantId, query),
    ),
    {
      method: 'GET',
      path: '/api/v1/conversations/:id',
      handlers: [
        async (req, res) => res.json(ok(await getConversation(deps, tenantOf(res), idOf(req.params.id)))),
      ],
    },
    {
      method: 'PATCH',
      path: '/api/v1/conversations/:id',
      handlers: [
        async (req, res) => {
          const request = validate(updateConversationSchema, req.body ?? {});
          res.json(ok(await updateConversation(deps, tenantOf(res), idOf(req.params.id), request)));
        },
      ],
    },
    {
      method: 'GET',
      path: '/api/v1/conversations/:id/messages',
      handlers: [
        async (req, res) => {
          const query = validate(conversationMessagesQuerySchema, req.query);
          res.json(ok(await listConversationMessages(deps, tenantOf(res), idOf(req.params.id), query)));
        },
      ],
    },
    {
      method: 'POST',
      path: '/api/v1/conversations/:id/messages',
      handlers: [
        async (req, res) => {
          const reply = validate(conversationReplySchema, req.body ?? {});
          const answer = await replyToConversation(
            deps,
            tenantOf(res),
            idOf(req.params.id),
            reply,
            idempotencyKeyOf(req),
          );
          sendIdempotentAnswer(res, answer);
        },
      ],
    },
    {
      method: 'POST',
      path: '/api/v1/conversations/:id/read',
      handlers: [
        async (req, res) =>
          res.json(ok(await markConversationRead(deps, tenantOf(res), idOf(req.params.id)))),
      ],
    },
  ]);
}
