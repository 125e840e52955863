import type {
  FlowDefinition,
  SendButtonsStep,
  SendListStep,
  SendTemplateStep,
  SendTextStep,
} from '@bm/contracts';
import { AppError } from '@bm/platform';
import { endSession, requestLiveChat, type CustomerMessage } from './flow-session-events';
import { branchFor, interpolate, type FlowReply } from './flow-rules';
import type { MessagingDeps } from '../messaging-deps';
import type { Tx } from '../ports/unit-of-work.port';
import { assertTemplateSendable } from '../templates/template-rules';
import type { FlowSession } from '../ports/flow-session.port';
import type { MessageContent, NewMessageLog } from '../ports/message-log.port';

// The graph is checked on save (no loop without a wait); this bounds a run all the same.
const MAX_STEPS_PER_RUN = 500;

type SendStep = SendTextStep | SendTemplateStep | SendButtonsStep | SendListStep;
type Outgoing = Pick<NewMessageLog, 'messageType' | 'content' | 'templateCategory' | 'conversationCategory'>;

/** A send step's message, or undefined when its template can no longer be sent (or not to this customer). */
/** What running a session touches: its messages, its template checks, its session and events. */
export type FlowRunDeps = Pick<
  MessagingDeps,
  'flowSessions' | 'messages' | 'templates' | 'customers' | 'outbox' | 'logger' | 'conversations'
>;

async function outgoingOf(
  deps: FlowRunDeps,
  tx: Tx,
  session: FlowSession,
  step: SendStep,
  reply: FlowReply | undefined,
): Promise<Outgoing | undefined> {
  const service = (messageType: NewMessageLog['messageType'], content: MessageContent): Outgoing => ({
    messageType,
    content,
    templateCategory: null,
    conversationCategory: 'SERVICE',
  });
  const text = (value: string) => interpolate(value, session.variables, reply);
  switch (step.type) {
    case 'send_text':
      return service('text', { text: text(step.text) });
    case 'send_buttons':
      return service('interactive', {
        interactive: {
          type: 'button',
          body: { text: text(step.body) },
          action: {
            buttons: step.buttons.map((b) => ({ type: 'reply', reply: { id: b.id, title: b.title } })),
          },
        },
      });
    case 'send_list':
      return service('interactive', {
        interactive: {
          type: 'list',
          body: { text: text(step.body) },
          action: { button: step.button, sections: step.sections },
        },
      });
    case 'send_template': {
      const { name, language_code: language, components = [] } = step.template;
      try {
        const template = assertTemplateSendable(
          await deps.templates.find(session.channelAccountId, name, language, tx),
          components,
        );
        // A customer who opted out gets no MARKETING template from a flow either, as from a single send.
        if (
          template.category === 'MARKETING' &&
          (await deps.customers.isOptedOut(session.tenantId, session.phone, tx))
        ) {
          throw new AppError('RECIPIENT_OPTED_OUT');
        }
        return {
          messageType: 'template',
          content: { name, language, components: components as unknown as Array<Record<string, unknown>> },
          templateCategory: template.category,
          conversationCategory: template.category,
        };
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        deps.logger.warn('flow template cannot be sent; session cancelled', {
          flow_id: session.flowId,
          session_id: session.id,
          code: err.code,
        });
        return undefined;
      }
    }
  }
}

/**
 * Runs a session from where it stands until it waits for the customer or ends. A `reply` is consumed by the
 * wait step the session stands at. Messages go through the send path (a message log and its delivery command in
 * this transaction), inside the window the customer's message just opened.
 */
export async function advanceFlowSession(
  deps: FlowRunDeps,
  tx: Tx,
  session: FlowSession,
  definition: FlowDefinition,
  message: CustomerMessage,
  reply: FlowReply | undefined,
): Promise<void> {
  const steps = new Map(definition.steps.map((s) => [s.id, s]));
  let stepId = session.currentStep ?? definition.steps[0].id;
  let pending = reply;
  for (let i = 0; i < MAX_STEPS_PER_RUN; i += 1) {
    const step = steps.get(stepId);
    if (!step) throw new Error(`flow ${session.flowId} v${session.flowVersion} has no step ${stepId}`);
    switch (step.type) {
      case 'send_text':
      case 'send_template':
      case 'send_buttons':
      case 'send_list': {
        const outgoing = await outgoingOf(deps, tx, session, step, reply);
        if (!outgoing) return endSession(deps, tx, session, 'cancelled');
        await deps.messages.insert(
          tx,
          {
            ...outgoing,
            tenantId: session.tenantId,
            channelAccountId: session.channelAccountId,
            toPhone: session.phone,
            status: 'queued',
            scheduledAt: null,
            autoRetryOnFrequencyCap: false,
          },
          { deliver: true },
        );
        stepId = step.next;
        break;
      }
      case 'set_variable':
        session.variables = {
          ...session.variables,
          [step.variable]: interpolate(step.value, session.variables, reply),
        };
        stepId = step.next;
        break;
      case 'wait_for_reply':
        if (!pending) {
          Object.assign(session, {
            currentStep: step.id,
            expiresAt: new Date(Date.now() + definition.timeout_seconds * 1000),
          });
          return deps.flowSessions.update(tx, session);
        }
        if (step.save_as) {
          session.variables = { ...session.variables, [step.save_as]: pending.id ?? pending.text ?? '' };
        }
        stepId = branchFor(step, pending);
        pending = undefined;
        break;
      case 'handoff':
        await endSession(deps, tx, session, 'handed_off');
        return requestLiveChat(deps, tx, message, session.id);
      case 'end':
        return endSession(deps, tx, session, 'completed');
    }
  }
  throw new Error(`flow ${session.flowId} ran more than ${MAX_STEPS_PER_RUN} steps without waiting`);
}
