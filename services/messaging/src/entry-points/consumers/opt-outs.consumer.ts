import { retryPolicyOf } from '@bm/contracts';
import type { AmqpClient } from '@bm/platform';
import type { MessagingDeps } from '../../domain/messaging-deps';
import { applyOptOutChange } from '../../domain/opt-outs/apply-opt-out-change.use-case';
import { dispatch } from './dispatch';

/** `messaging.opt-outs`: campaign's opt-out list, copied for the single sends' check. */
export async function consumeOptOutChanges(amqp: AmqpClient, deps: MessagingDeps): Promise<void> {
  await amqp.consume(
    'messaging.opt-outs',
    ['opt_out.changed'],
    dispatch({ 'opt_out.changed': (event) => applyOptOutChange(deps, event) }),
    retryPolicyOf('messaging.opt-outs'),
  );
}
