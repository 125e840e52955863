import Joi from 'joi';

/*
 * Commands a service sends over RabbitMQ to one consumer that is not a domain event (no event id, tenant or
 * time): today messaging's own hand-over of queued messages to its send workers. Campaign sends go as the
 * `messaging.sends_requested` domain event, a batch of recipients (`messaging.send_requested`, one recipient, when
 * campaign's SEND_COMMAND_SIZE is 1); both are in DOMAIN_EVENT_SCHEMAS.
 */

/** Routing key of the command that hands queued messages to a send worker. */
export const DELIVER_COMMAND = 'messaging.deliver';

/**
 * A delivery command: the messages of one write (`messages`: a group commit of sends, a batch of campaign
 * recipients, the scheduler's releases), each with the trace of the request that created it when it has one.
 * Messaging builds every command with `deliverCommand` (services/messaging/src/domain/emit-event.ts);
 * `message_log_id`, one message, is what older replicas wrote, still read during a rolling update.
 */
export interface DeliverCommand {
  message_log_id?: number;
  messages?: Array<{ id: number; traceparent?: string }>;
}

export const deliverCommandSchema = Joi.object<DeliverCommand>({
  message_log_id: Joi.number().integer().min(1),
  messages: Joi.array()
    .items(
      Joi.object({
        id: Joi.number().integer().min(1).required(),
        traceparent: Joi.string().max(128),
      }).unknown(true),
    )
    .min(1),
}).xor('message_log_id', 'messages');
