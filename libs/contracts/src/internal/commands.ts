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
 * A delivery command: one message (`message_log_id`: the scheduler, a retry, a stranded message) or the messages
 * of one insert statement (`messages`: a group commit of sends, a batch of campaign recipients), each with the
 * trace of the request that created it.
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
