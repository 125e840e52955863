import { DOMAIN_EVENT_SCHEMAS } from '@bm/contracts';
import { validate, type AmqpClient } from '@bm/platform';
import type { IngressDeps } from '../../domain/ingress-deps';
import { recordLiveChatRequest } from '../../domain/record-live-chat-request.use-case';

/** Live-chat requests from messaging, kept as the tenant's notifications. */
export async function registerLiveChatConsumer(amqp: AmqpClient, deps: IngressDeps): Promise<void> {
  await amqp.consume('ingress.live-chat', ['live_chat.requested'], (message) =>
    recordLiveChatRequest(deps, validate(DOMAIN_EVENT_SCHEMAS['live_chat.requested'], message.payload)),
  );
}
