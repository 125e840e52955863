import { emitSessionEvent } from './flow-session-events';
import type { MessagingDeps } from '../messaging-deps';

const BATCH = 200;

/** Ends sessions that waited past their flow's timeout (timed_out, `flow.session_cancelled`), a batch per transaction. */
export async function expireFlowSessions(
  deps: Pick<MessagingDeps, 'unitOfWork' | 'flowSessions' | 'outbox'>,
): Promise<number> {
  let total = 0;
  for (;;) {
    const expired = await deps.unitOfWork.inTransaction(async (tx) => {
      const sessions = await deps.flowSessions.expireDue(tx, BATCH);
      for (const session of sessions) await emitSessionEvent(deps, tx, 'flow.session_cancelled', session);
      return sessions.length;
    });
    total += expired;
    if (expired < BATCH) return total;
  }
}
