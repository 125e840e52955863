import {
  DOMAIN_EVENTS,
  messageReceivedSchema,
  messageStatusUpdatedSchema,
  retryPolicyOf,
} from '@bm/contracts';
import { GroupCommit, validate, type AmqpClient } from '@bm/platform';
import type { CampaignDeps } from '../../domain/campaign-deps';
import { applyInboundKeyword } from '../../domain/opt-outs/apply-inbound-keyword.use-case';
import type { MessageOutcome } from '../../domain/ports/recipients.port';
import { applyMessageOutcomes } from '../../domain/sending/apply-message-status.use-case';
import { namesCampaignRecipient, outcomeOf } from '../../domain/sending/message-outcome';

/**
 * The campaign service's queues: messaging's status events (recipients follow their messages) and the
 * customers' messages (STOP / START keywords). Both handlers are idempotent: a redelivery changes nothing, and
 * both wait out a database outage (their retry policies are in `CONSUMER_QUEUES`).
 */
export async function registerConsumers(amqp: AmqpClient, deps: CampaignDeps): Promise<void> {
  const outcomes = new GroupCommit<MessageOutcome>((items) => applyMessageOutcomes(deps, items), {
    name: 'campaign recipient outcomes',
    logger: deps.logger,
  });
  await amqp.consume(
    'campaign.message-statuses',
    [DOMAIN_EVENTS.messageStatusUpdated],
    async (message) => {
      if (!namesCampaignRecipient(message.payload)) return;
      const outcome = outcomeOf(validate(messageStatusUpdatedSchema, message.payload));
      if (outcome) await outcomes.submit(outcome);
    },
    { ...retryPolicyOf('campaign.message-statuses'), prefetch: 1000 },
  );
  await amqp.consume(
    'campaign.opt-out-keywords',
    [DOMAIN_EVENTS.messageReceived],
    async (message) => applyInboundKeyword(deps, validate(messageReceivedSchema, message.payload)),
    { ...retryPolicyOf('campaign.opt-out-keywords'), prefetch: 50 },
  );
}
