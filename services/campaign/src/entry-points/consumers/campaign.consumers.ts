import {
  customerAddressChangedSchema,
  DOMAIN_EVENTS,
  marketingPreferenceSchema,
  messageReceivedSchema,
  messageStatusUpdatedSchema,
  retryPolicyOf,
} from '@bm/contracts';
import { GroupCommit, validate, type AmqpClient } from '@bm/platform';
import type { CampaignDeps } from '../../domain/campaign-deps';
import {
  applyInboundKeyword,
  applyMarketingPreference,
  moveCustomer,
} from '../../domain/opt-outs/apply-inbound-keyword.use-case';
import type { MessageOutcome } from '../../domain/ports/recipients.port';
import { applyMessageOutcomes } from '../../domain/sending/apply-message-status.use-case';
import { namesCampaignRecipient, outcomeOf } from '../../domain/sending/message-outcome';

/**
 * The campaign service's queues: messaging's status events (recipients follow their messages) and the
 * customers' say on marketing (STOP / START keywords in their messages, marketing stops the upstream reports, and
 * their changes of address). Both handlers are idempotent: a redelivery changes nothing, and
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
  // The customers' own say: STOP / START in their messages, and marketing stops the upstream reports.
  await amqp.consume(
    'campaign.opt-out-keywords',
    [DOMAIN_EVENTS.messageReceived, DOMAIN_EVENTS.marketingPreference, DOMAIN_EVENTS.customerAddressChanged],
    async ({ routingKey, payload }) => {
      if (routingKey === DOMAIN_EVENTS.marketingPreference)
        return applyMarketingPreference(deps, validate(marketingPreferenceSchema, payload));
      if (routingKey === DOMAIN_EVENTS.customerAddressChanged)
        return moveCustomer(deps, validate(customerAddressChangedSchema, payload));
      return applyInboundKeyword(deps, validate(messageReceivedSchema, payload));
    },
    { ...retryPolicyOf('campaign.opt-out-keywords'), prefetch: 50 },
  );
}
