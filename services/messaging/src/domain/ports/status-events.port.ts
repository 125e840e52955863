import type { StatusEventToSend } from './message-log.port';

/**
 * Where messages' status events go once the change that made them has committed: to the broker, confirmed, or to
 * the outbox when the broker cannot take them. Answers once they are one or the other. A crash before that is
 * covered by what brought the change being handled again (a receipt or a deliver command redelivered, `repeat`),
 * which sends the same events again: a status event's id derives from its message and status (`statusEvent`).
 */
export interface StatusEvents {
  send(events: readonly StatusEventToSend[]): Promise<void>;
}
