import type { InboundMessageItem } from '@bm/contracts';
import { newUlid } from '@bm/platform';
import { advanceFlowSession, type FlowRunDeps } from './advance-flow-session';
import { emitSessionEvent, endSession, type CustomerMessage } from './flow-session-events';
import { isCancelRequest, normalizeKeyword, type FlowReply } from './flow-rules';
import type { MessagingDeps } from '../messaging-deps';
import type { Tx } from '../ports/unit-of-work.port';
import type { Flow } from '../ports/flow.port';
import type { FlowSession } from '../ports/flow-session.port';

/** A button id (an interactive button reply or a template quick reply), a list row id, or plain text. */
export function replyOf(item: InboundMessageItem): FlowReply {
  if (item.type === 'interactive') {
    const interactive = item.raw.interactive as { type?: unknown } | undefined;
    const kind = interactive?.type === 'list_reply' ? 'list' : 'button';
    return { kind, id: item.button_payload, text: item.text };
  }
  if (item.type === 'button') return { kind: 'button', id: item.button_payload, text: item.text };
  return { kind: 'text', id: null, text: item.text };
}

/** The first active flow whose trigger the message fires: a keyword first, then a new conversation. */
function triggeredFlow(flows: Flow[], reply: FlowReply, newConversation: boolean): Flow | undefined {
  const text = normalizeKeyword(reply.text);
  const byKeyword = flows.find(
    (f) =>
      f.definition.trigger.type === 'keyword' &&
      text !== '' &&
      f.definition.trigger.keywords.some((k) => normalizeKeyword(k) === text),
  );
  if (byKeyword) return byKeyword;
  return newConversation ? flows.find((f) => f.definition.trigger.type === 'new_conversation') : undefined;
}

/**
 * Inside the transaction that records a new customer message: the message goes to the customer's running
 * session, or starts a session of an active flow whose trigger it fires. "cancel" / "stop" cancels a running
 * session; a session past its timeout is ended first. Returns whether a flow took the message. The customer
 * is serialized by an advisory lock, so two messages of one customer never run a session at once.
 */
export async function routeInboundToFlow(
  deps: FlowRunDeps & Pick<MessagingDeps, 'flows'>,
  tx: Tx,
  message: CustomerMessage,
  item: InboundMessageItem,
  newConversation: boolean,
): Promise<boolean> {
  const { account, from } = message;
  await deps.flowSessions.lockCustomer(tx, account.id, from);
  const reply = replyOf(item);
  let session = await deps.flowSessions.lockActive(tx, account.id, from);
  if (session?.expiresAt && session.expiresAt.getTime() <= Date.now()) {
    await endSession(deps, tx, session, 'timed_out');
    session = undefined;
  }
  if (session) {
    if (isCancelRequest(reply)) {
      await endSession(deps, tx, session, 'cancelled');
      return true;
    }
    const definition = await deps.flows.definitionOf(tx, session.flowId, session.flowVersion);
    if (!definition) throw new Error(`flow ${session.flowId} v${session.flowVersion} is missing`);
    await advanceFlowSession(deps, tx, session, definition, message, reply);
    return true;
  }
  const flow = triggeredFlow(await deps.flows.activeForAccount(tx, account.id), reply, newConversation);
  if (!flow) return false;
  const started: FlowSession = {
    id: newUlid(),
    tenantId: account.tenantId,
    flowId: flow.id,
    flowVersion: flow.version,
    channelAccountId: account.id,
    phone: from,
    status: 'active',
    currentStep: null,
    variables: {},
    startedAt: new Date(),
    expiresAt: null,
    endedAt: null,
  };
  await deps.flowSessions.insert(tx, started);
  await emitSessionEvent(deps, tx, 'flow.session_started', started);
  // The triggering message starts the flow; it is not a reply to the flow's first wait.
  await advanceFlowSession(deps, tx, started, flow.definition, message, undefined);
  return true;
}
