import type { SandboxDeps } from '../deps';
import { GraphError } from '../graph-errors';
import { conversationId, digitsOnly, newMessageId } from '../ids';
import { takeFaultRule, type AppliedFault } from '../faults/fault-rule';
import { patternFault } from '../faults/number-patterns';
import { appendBounded, nextSeq, numberInfo, type SendRecord } from '../state';
import { checkTemplateSend, type TemplateSend } from '../templates/template-check';
import type { Template } from '../templates/template';
import { reportStatuses } from '../webhooks-out/status-reporter';
import { takeThroughputSlot } from './throughput';
import { validateSendBody } from './send-validation';

export interface SendRequest {
  phoneNumberId: string;
  token: string | undefined;
  body: unknown;
}

export interface SendAnswer {
  httpStatus: number;
  body: unknown;
  /** The send was accepted, but its answer is lost: the connection is reset after this many ms. */
  dropAfterMs?: number;
}

/** Any non-empty token is accepted, except these two, which let a test see error 190. */
const REFUSED_TOKENS = new Set(['expired', 'invalid']);

function findTemplate(deps: SandboxDeps, phoneNumberId: string, send: TemplateSend): Template | undefined {
  const number = numberInfo(deps.state, phoneNumberId);
  const own = deps.state.templates.find(number.waba_id, send.name, send.language);
  // A registered number sees only its own WABA; an unknown one may use any WABA's template.
  return own ?? (number.known ? undefined : deps.state.templates.findAnywhere(send.name, send.language));
}

function chooseFault(deps: SandboxDeps, waId: string, phoneNumberId: string): AppliedFault | undefined {
  const { state } = deps;
  return (
    takeFaultRule(state.faults, waId, phoneNumberId) ??
    (state.settings.faultPatterns ? patternFault(waId) : undefined)
  );
}

/**
 * The send endpoint's story: check the token and the body, apply an injected fault, enforce the number's
 * throughput, check the template, then accept and report statuses by webhook (each echoing the send's
 * `biz_opaque_callback_data`). Every call is recorded.
 */
export async function sendMessage(deps: SandboxDeps, request: SendRequest): Promise<SendAnswer> {
  const { state } = deps;
  const record: SendRecord = {
    seq: nextSeq(state),
    at: new Date().toISOString(),
    phone_number_id: request.phoneNumberId,
    body: request.body,
    result: 'rejected',
    http_status: 0,
    response: undefined,
    statuses: [],
  };
  appendBounded(state, state.sends, record);
  // Noted before any check, so a rejected send can be found by its recipient too.
  const rawTo = (request.body as { to?: unknown } | undefined)?.to;
  if (typeof rawTo === 'string') Object.assign(record, { to: rawTo, wa_id: digitsOnly(rawTo) });
  try {
    if (request.token === undefined || request.token === '' || REFUSED_TOKENS.has(request.token)) {
      throw GraphError.of(190);
    }
    const send = validateSendBody(request.body);
    const fault = chooseFault(deps, send.waId, request.phoneNumberId);
    record.fault = fault?.source;
    // A dropped answer is held after the acceptance instead: its statuses may overtake the reset.
    if (fault !== undefined && fault.delay_ms > 0 && !fault.drop_answer)
      await deps.timers.sleep(fault.delay_ms);
    if (fault?.error_code !== undefined && fault.mode === 'sync') {
      throw GraphError.of(fault.error_code, undefined, fault.http_status);
    }
    const number = numberInfo(state, request.phoneNumberId);
    if (
      !takeThroughputSlot(state.throughput, request.phoneNumberId, number.mps ?? state.settings.defaultMps)
    ) {
      throw GraphError.of(130429);
    }
    // The pricing category: a template's own, or `service` for a free-form reply.
    const category =
      send.template === undefined
        ? 'service'
        : checkTemplateSend(
            findTemplate(deps, request.phoneNumberId, send.template),
            send.template,
          ).category.toLowerCase();
    const messageId = newMessageId(send.waId);
    const body = {
      messaging_product: 'whatsapp',
      contacts: [{ input: send.to, wa_id: send.waId }],
      messages: [{ id: messageId }],
    };
    Object.assign(record, { result: 'accepted', http_status: 200, response: body, message_id: messageId });
    void reportStatuses(deps, {
      record,
      messageId,
      phoneNumberId: request.phoneNumberId,
      waId: send.waId,
      category,
      conversationId: conversationId(request.phoneNumberId, send.waId, category),
      acceptedAt: Date.now(),
      failWith: fault?.mode === 'status' ? fault.error_code : undefined,
      callbackData: send.callbackData,
    });
    if (fault?.drop_answer) {
      record.answer_dropped = true;
      return { httpStatus: 200, body, dropAfterMs: fault.delay_ms };
    }
    return { httpStatus: 200, body };
  } catch (err) {
    if (!(err instanceof GraphError)) throw err;
    const body = err.toBody();
    Object.assign(record, { http_status: err.httpStatus, response: body, error_code: err.code });
    return { httpStatus: err.httpStatus, body };
  }
}
