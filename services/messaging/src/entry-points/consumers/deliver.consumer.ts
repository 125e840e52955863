import { DELIVER_COMMAND, deliverCommandSchema, retryPolicyOf } from '@bm/contracts';
import { currentTraceparent, GroupCommit, runInTrace, validate, type AmqpClient } from '@bm/platform';
import type { MessagingDeps } from '../../domain/messaging-deps';
import { deliverMessages, sendEventsOfSent } from '../../domain/sending/deliver-message.use-case';

/**
 * `messaging.deliver`: the deliver commands of queued messages. Messages to deliver that arrive together (within
 * 5 ms) go as one batch: two statements per batch instead of two per message. At most SEND_CONCURRENCY are being
 * delivered at once (a command may carry hundreds), in batches of half that, so the next one gathers while the
 * current one is on the wire.
 */
export async function consumeDeliverCommands(amqp: AmqpClient, deps: MessagingDeps): Promise<void> {
  const deliveries = new GroupCommit<{ id: number; traceparent: string | undefined }>(
    (batch) => {
      // Each message of a batch keeps the trace of its own delivery.
      const traces = new Map(batch.map((m) => [m.id, m.traceparent]));
      return deliverMessages(deps, [...traces.keys()], (id) => traces.get(id));
    },
    {
      name: 'deliveries',
      maxBatch: Math.max(1, Math.floor(deps.config.SEND_CONCURRENCY / 2)),
      maxItemsInFlight: deps.config.SEND_CONCURRENCY,
      concurrency: Infinity,
      lingerMs: 5,
      onFailure: 'all',
    },
  );
  const deliver = (id: number) => deliveries.submit({ id, traceparent: currentTraceparent() });
  await amqp.consume(
    'messaging.deliver',
    [DELIVER_COMMAND],
    async (message) => {
      const command = validate(deliverCommandSchema, message.payload);
      // `message_log_id`: a command written before every producer built it with deliverCommand (a rolling update).
      if (command.message_log_id !== undefined) return deliver(command.message_log_id);
      // A message without a trace of its own (a scheduler's release) continues the command's.
      await Promise.all(
        command.messages!.map((m) =>
          m.traceparent ? runInTrace(m.traceparent, () => deliver(m.id)) : deliver(m.id),
        ),
      );
      // Handled before: its sends may have been recorded by a worker that died before their events went out.
      if (message.redelivered || message.attempt > 1)
        await sendEventsOfSent(
          deps,
          command.messages!.map((m) => m.id),
        );
    },
    { ...retryPolicyOf('messaging.deliver'), prefetch: deps.config.SEND_CONCURRENCY },
  );
}
