import { DOMAIN_EVENT_SCHEMAS, retryPolicyOf } from '@bm/contracts';
import { validate, type AmqpClient } from '@bm/platform';
import type { IngressDeps } from '../../domain/ingress-deps';
import { recordLiveChatRequest, recordTemplateReview } from '../../domain/record-notification.use-case';

/** Messaging's live-chat requests and template reviews, kept as the tenant's notifications. */
export async function registerNotificationConsumers(amqp: AmqpClient, deps: IngressDeps): Promise<void> {
  await amqp.consume(
    'ingress.live-chat',
    ['live_chat.requested'],
    (message) =>
      recordLiveChatRequest(deps, validate(DOMAIN_EVENT_SCHEMAS['live_chat.requested'], message.payload)),
    retryPolicyOf('ingress.live-chat'),
  );
  await amqp.consume(
    'ingress.template-review',
    ['template.status_changed'],
    (message) =>
      recordTemplateReview(deps, validate(DOMAIN_EVENT_SCHEMAS['template.status_changed'], message.payload)),
    retryPolicyOf('ingress.template-review'),
  );
}
