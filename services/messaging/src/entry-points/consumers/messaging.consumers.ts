import type { AmqpClient } from '@bm/platform';
import type { MessagingDeps } from '../../domain/messaging-deps';
import { consumeDeliverCommands } from './deliver.consumer';
import { consumeInboundItems } from './inbound.consumer';
import { consumeOptOutChanges } from './opt-outs.consumer';
import { consumeSendRequests } from './send-requests.consumer';

/** Registers the messaging service's queues: deliveries, inbound items, campaign sends and opt-outs. */
export async function registerConsumers(amqp: AmqpClient, deps: MessagingDeps): Promise<void> {
  await consumeDeliverCommands(amqp, deps);
  await consumeInboundItems(amqp, deps);
  await consumeSendRequests(amqp, deps);
  await consumeOptOutChanges(amqp, deps);
}
