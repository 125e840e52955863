export * from './amqp.types';
export { AmqpClient } from './amqp-client';
export { OutboxEventEntity } from './outbox.entity';
export { createOutboxTable, dropOutboxTable } from './outbox.migration';
export { enqueueEvent, enqueueEvents, outboxInsertSql, type OutboxEvent } from './enqueue-event';
export { OutboxRelay, type OutboxRelayOptions } from './outbox-relay';
export { sendConfirmed, type MessageToSend, type SendOutcome } from './send-confirmed';
export { amqpClientFor } from './amqp-from-config';
export { DeadLetterQueues } from './dead-letter-queues';
