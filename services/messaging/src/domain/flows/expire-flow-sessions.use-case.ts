import { emitSessionEvent } from './flow-session-events';
import type { MessagingDeps } from '../messaging-deps';

const BATCH = 200;

/** Ends sessions that waited past their flow's timeout (timed_out, `flow.session_cancelled`), a batch per transaction. */
export async function expireFlowSessions(deps: MessagingDeps): Promise<number> {
  let total = 0;
  for (;;) {
    const expired = await deps.dataSource.transaction(async (tx) => {
      const sessions = await deps.flowSessions.expireDue(tx, BATCH);
      for (const session of sessions) await emitSessionEvent(tx, 'flow.session_cancelled', session);
      return sessions.length;
    });
    total += expired;
    if (expired < BATCH) return total;
  }
}
