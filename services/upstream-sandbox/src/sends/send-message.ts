import { customerByPhone, customerByUserId, setMarketing } from '../customers/customers';
import type { SandboxDeps } from '../deps';
import { GraphError } from '../graph-errors';
import { conversationId, digitsOnly, newMessageId } from '../ids';
import { takeFaultRule, type AppliedFault } from '../faults/fault-rule';
import { patternFault } from '../faults/number-patterns';
import { appendBounded, businessOf, nextSeq, numberInfo, playsWire2026, type SendRecord } from '../state';
import { checkTemplateSend, type TemplateSend } from '../templates/template-check';
import { findComponent, type Template } from '../templates/template';
import { reportStatuses } from '../webhooks-out/status-reporter';
import { takeBusinessInitiated } from './portfolio-limit';
import { takeThroughputSlot } from './throughput';
import { validateSendBody } from './send-validation';

export interface SendRequest {
  phoneNumberId: string;
  token: string | undefined;
  body: unknown;
  /** The `vNN.N` of the path; v24.0 and later answer and report in the 2026 wire. */
  version?: string;
}

export interface SendAnswer {
  httpStatus: number;
  body: unknown;
  /** The send was accepted, but its answer is lost: the connection is reset after this many ms. */
  dropAfterMs?: number;
}

/** Any non-empty token is accepted, except these two, which let a test see error 190. */
const REFUSED_TOKENS = new Set(['expired', 'invalid']);

/** A customer's service window: 24 h from their last message. */
const WINDOW_MS = 24 * 60 * 60 * 1000;

/** The authentication template types the network will not send to a user id. */
const OTP_TYPES_REFUSED_FOR_USER_IDS = new Set(['ONE_TAP', 'ZERO_TAP', 'COPY_CODE']);

function findTemplate(deps: SandboxDeps, phoneNumberId: string, send: TemplateSend): Template | undefined {
  const number = numberInfo(deps.state, phoneNumberId);
  const own = deps.state.templates.find(number.waba_id, send.name, send.language);
  // A registered number sees only its own WABA; an unknown one may use any WABA's template.
  return own ?? (number.known ? undefined : deps.state.templates.findAnywhere(send.name, send.language));
}

/**
 * True for an authentication template of a type that cannot go to a user id: an OTP button of type one-tap,
 * zero-tap or copy-code, or no OTP button at all (the network's default is copy-code; the seed `otp_code` has none).
 */
function refusedForUserIds(template: Template): boolean {
  if (template.category !== 'AUTHENTICATION') return false;
  const buttons = findComponent(template, 'BUTTONS')?.buttons ?? [];
  const otp = buttons.filter((b) => String(b.type).toUpperCase() === 'OTP');
  return (
    otp.length === 0 || otp.some((b) => OTP_TYPES_REFUSED_FOR_USER_IDS.has(String(b.otp_type).toUpperCase()))
  );
}

function chooseFault(
  deps: SandboxDeps,
  address: string,
  phoneNumberId: string,
  wire2026: boolean,
): AppliedFault | undefined {
  const { state } = deps;
  return (
    takeFaultRule(state.faults, address, phoneNumberId) ??
    (state.settings.faultPatterns ? patternFault(address, wire2026) : undefined)
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
  const raw = request.body as { to?: unknown; recipient?: unknown } | undefined;
  if (typeof raw?.to === 'string') Object.assign(record, { to: raw.to, wa_id: digitsOnly(raw.to) });
  else if (typeof raw?.recipient === 'string') record.user_id = raw.recipient;
  try {
    if (request.token === undefined || request.token === '' || REFUSED_TOKENS.has(request.token)) {
      throw GraphError.of(190);
    }
    const send = validateSendBody(request.body);
    const wire2026 = playsWire2026(state, request.version);
    const fault = chooseFault(deps, send.address, request.phoneNumberId, wire2026);
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
    const template =
      send.template === undefined
        ? undefined
        : checkTemplateSend(findTemplate(deps, request.phoneNumberId, send.template), send.template);
    if (template !== undefined && send.userId !== undefined && refusedForUserIds(template)) {
      throw GraphError.of(131062);
    }
    const businessId = businessOf(number);
    const customer =
      send.userId !== undefined
        ? customerByUserId(state, businessId, send.userId)
        : customerByPhone(state, businessId, send.waId as string);
    record.user_id = customer.user_id;
    // The pricing category: a template's own, or `service` for a free-form reply.
    const category = template === undefined ? 'service' : template.category.toLowerCase();
    const lastWrote = state.windows.get(`${request.phoneNumberId}|${customer.user_id}`);
    const windowOpen = lastWrote !== undefined && Date.now() - lastWrote < WINDOW_MS;
    // A free-form reply, and a utility template inside the window, are free customer service.
    const pricingType =
      template === undefined || (windowOpen && category === 'utility') ? 'free_customer_service' : 'regular';
    record.pricing = { type: pricingType, category };
    let failWith = fault?.mode === 'status' ? fault.error_code : undefined;
    let failOnly = fault?.fail_only === true;
    let preferencesStop = fault?.preferences_stop === true;
    if (failWith === undefined && category === 'marketing' && customer.marketing === 'stop') {
      // The customer stopped marketing from this business (a `user_preferences` stop).
      [failWith, failOnly, preferencesStop] = [131050, true, false];
    }
    if (failWith === undefined && template !== undefined && !windowOpen) {
      if (!takeBusinessInitiated(state, businessId, customer.user_id)) [failWith, failOnly] = [131048, true];
    }
    if (preferencesStop) setMarketing(state, customer, 'stop');
    const messageId = newMessageId(send.address);
    const held = fault?.held === true;
    const messageStatus = held
      ? { message_status: 'held_for_quality_assessment' }
      : wire2026 && template !== undefined
        ? { message_status: 'accepted' }
        : {};
    const body = {
      messaging_product: 'whatsapp',
      contacts: [
        send.userId !== undefined
          ? { input: send.to, user_id: send.userId }
          : { input: send.to, wa_id: send.waId },
      ],
      messages: [{ id: messageId, ...messageStatus }],
    };
    Object.assign(record, { result: 'accepted', http_status: 200, response: body, message_id: messageId });
    if (held) record.held = true;
    const showUserId = wire2026 || send.userId !== undefined;
    void reportStatuses(deps, {
      record,
      messageId,
      phoneNumberId: request.phoneNumberId,
      // A username-only customer's phone never shows; a send by user id shows the phone the network knows.
      recipientId: customer.username_only ? undefined : customer.wa_id,
      recipientUserId: showUserId ? customer.user_id : undefined,
      customer,
      category,
      pricingType,
      wire2026,
      played: wire2026 && send.type === 'audio',
      conversationId: conversationId(request.phoneNumberId, send.address, category),
      acceptedAt: Date.now(),
      failWith,
      failOnly,
      preferencesStop,
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
