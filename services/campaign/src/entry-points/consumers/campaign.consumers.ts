import { DOMAIN_EVENTS, messageReceivedSchema, messageStatusUpdatedSchema } from '@bm/contracts';
import { validate, type AmqpClient } from '@bm/platform';
import { applyMessageStatus } from '../../domain/apply-message-status.use-case';
import type { CampaignDeps } from '../../domain/campaign-deps';
import { applyInboundKeyword } from '../../domain/opt-outs.use-case';

/**
 * The campaign service's queues: messaging's status events (recipients follow their messages) and the
 * customers' messages (STOP / START keywords). Both handlers are idempotent: a redelivery changes nothing.
 */
export async function registerConsumers(amqp: AmqpClient, deps: CampaignDeps): Promise<void> {
  await amqp.consume(
    'campaign.message-statuses',
    [DOMAIN_EVENTS.messageStatusUpdated],
    async (message) => applyMessageStatus(deps, validate(messageStatusUpdatedSchema, message.payload)),
    { prefetch: 200 },
  );
  await amqp.consume(
    'campaign.opt-out-keywords',
    [DOMAIN_EVENTS.messageReceived],
    async (message) => applyInboundKeyword(deps, validate(messageReceivedSchema, message.payload)),
    { prefetch: 50 },
  );
}
