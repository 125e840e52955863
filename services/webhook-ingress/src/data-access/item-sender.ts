import { DOMAIN_EVENTS, MAX_STATUSES_PER_BATCH } from '@bm/contracts';
import {
  batchMessages,
  GroupCommit,
  sendConfirmed,
  type EventPublisher,
  type Logger,
  type MessageToSend,
} from '@bm/platform';
import { itemMessage, type ItemSender, type OutgoingItem } from '../domain/ingress-ports';

/**
 * Sends items to the broker before the webhook is answered, as persistent messages confirmed by the broker. The
 * items of the webhooks that arrive within `lingerMs` of each other go out together, their status items in one
 * message (brokerMessages), issued back to back and confirmed together: the broker takes a burst rather than a
 * message at a time, and messaging's status batches stay as large as the outbox relay's passes made them. A broker that is away answers false at once; one that does
 * not confirm within `timeoutMs` (blocked, or a connection dying) answers false then, and the caller stores the
 * items in the outbox instead: a confirm arriving later makes an item go out twice, which its consumer ignores.
 */
export class BrokerItemSender implements ItemSender {
  readonly sends: GroupCommit<OutgoingItem[], boolean>;

  constructor(
    private readonly amqp: EventPublisher,
    private readonly logger: Logger,
    private readonly options: { timeoutMs: number; lingerMs: number },
  ) {
    this.sends = new GroupCommit((groups) => this.publish(groups), {
      name: 'inbound item sends',
      logger,
      maxBatch: 500,
      lingerMs: options.lingerMs,
      onFailure: 'all',
    });
  }

  send(items: OutgoingItem[]): Promise<boolean> {
    if (items.length === 0) return Promise.resolve(true);
    if (!this.amqp.isConnected()) return Promise.resolve(false);
    return this.sends.submit(items);
  }

  /** Publishes every item of the groups; one answer for all of them. */
  private async publish(groups: OutgoingItem[][]): Promise<boolean[]> {
    const items = groups.flat();
    const sent = await sendConfirmed(this.amqp, brokerMessages(items), this.options.timeoutMs);
    if (!sent.confirmed) {
      this.logger.warn('inbound items not confirmed by the broker, stored in the outbox instead', {
        items: items.length,
        error: sent.error,
      });
    }
    return groups.map(() => sent.confirmed);
  }
}

/**
 * The broker messages of items sent together: the status items in batches (`inbound.statuses`, one message for up
 * to MAX_STATUSES_PER_BATCH of them, each keeping its own event id), any other item alone under its own key.
 */
export function brokerMessages(items: readonly OutgoingItem[]): MessageToSend[] {
  const statuses = items.filter((o) => o.item.routingKey === DOMAIN_EVENTS.inboundStatus).map(itemMessage);
  const others = items.filter((o) => o.item.routingKey !== DOMAIN_EVENTS.inboundStatus);
  return [
    ...batchMessages(DOMAIN_EVENTS.inboundStatuses, 'statuses', statuses, MAX_STATUSES_PER_BATCH),
    ...others.map((o) => ({
      routingKey: o.item.routingKey,
      payload: itemMessage(o),
      messageId: o.item.payload.event_id,
    })),
  ];
}
