import type { SandboxConfig } from './config';
import type { FaultRule } from './faults/fault-rule';
import { TemplateStore } from './templates/template-store';

/** A sending number's account details, set through `PUT /_sandbox/numbers/:id`. */
export interface PhoneNumberRecord {
  phone_number_id: string;
  waba_id: string;
  display_phone_number: string;
  mps?: number;
  webhook_url?: string;
  messaging_limit_tier?: string;
}

/** Every call to the send endpoint, accepted or rejected. */
export interface SendRecord {
  seq: number;
  at: string;
  phone_number_id: string;
  to?: string;
  wa_id?: string;
  body: unknown;
  result: 'accepted' | 'rejected';
  http_status: number;
  response: unknown;
  message_id?: string;
  error_code?: number;
  fault?: string;
  /** Accepted, but the answer was never given: the connection was reset. */
  answer_dropped?: boolean;
  /** Statuses reported by webhook so far, in order. */
  statuses: string[];
}

export interface WebhookAttempt {
  at: string;
  http_status?: number;
  error?: string;
}

export interface WebhookRecord {
  seq: number;
  kind: string;
  url: string;
  body: unknown;
  attempts: WebhookAttempt[];
  delivered: boolean;
}

export interface SubscriptionRecord {
  waba_id: string;
  subscribed_at: string;
  body: unknown;
}

/** What `PUT /_sandbox/config` may change while running; starts from the environment. */
export interface Settings {
  webhookUrl: string;
  appSecret: string;
  statusDelaysMs: number[];
  defaultMps: number;
  faultPatterns: boolean;
  defaultWabaId: string;
  defaultDisplayPhoneNumber: string;
}

/** Everything the sandbox remembers; one process, in memory, cleared by `DELETE /_sandbox/state`. */
export interface SandboxState {
  settings: Settings;
  numbers: Map<string, PhoneNumberRecord>;
  sends: SendRecord[];
  faults: FaultRule[];
  templates: TemplateStore;
  subscriptions: Map<string, SubscriptionRecord>;
  /** Accept times in the last second, per phone number id. */
  throughput: Map<string, number[]>;
  webhooks: WebhookRecord[];
  maxRecords: number;
  seq: number;
}

function initialSettings(config: SandboxConfig): Settings {
  return {
    webhookUrl: config.SANDBOX_WEBHOOK_URL,
    appSecret: config.SANDBOX_APP_SECRET,
    statusDelaysMs: [...config.SANDBOX_STATUS_DELAYS_MS],
    defaultMps: config.SANDBOX_DEFAULT_MPS,
    faultPatterns: config.SANDBOX_FAULT_PATTERNS,
    defaultWabaId: config.SANDBOX_DEFAULT_WABA_ID,
    defaultDisplayPhoneNumber: config.SANDBOX_DEFAULT_DISPLAY_PHONE_NUMBER,
  };
}

export function createState(config: SandboxConfig): SandboxState {
  return {
    settings: initialSettings(config),
    numbers: new Map(),
    sends: [],
    faults: [],
    templates: new TemplateStore(config.SANDBOX_SEED_TEMPLATES),
    subscriptions: new Map(),
    throughput: new Map(),
    webhooks: [],
    maxRecords: config.SANDBOX_MAX_RECORDS,
    seq: 0,
  };
}

/** Forgets everything, settings included. */
export function resetState(state: SandboxState, config: SandboxConfig): void {
  state.settings = initialSettings(config);
  state.numbers.clear();
  state.sends.length = 0;
  state.faults.length = 0;
  state.templates.reset();
  state.subscriptions.clear();
  state.throughput.clear();
  state.webhooks.length = 0;
}

/** Appends to a bounded log: the oldest entries go once it is full, so long benchmarks keep memory flat. */
export function appendBounded<T>(state: SandboxState, list: T[], item: T): void {
  list.push(item);
  // Trim in chunks: splicing one item off the front of a long array on every push would cost O(n) each.
  if (list.length > state.maxRecords + Math.ceil(state.maxRecords / 10)) {
    list.splice(0, list.length - state.maxRecords);
  }
}

export function nextSeq(state: SandboxState): number {
  state.seq += 1;
  return state.seq;
}

/** The number's account, or the defaults for a number nobody registered (unknown numbers are accepted). */
export function numberInfo(
  state: SandboxState,
  phoneNumberId: string,
): PhoneNumberRecord & { known: boolean } {
  const known = state.numbers.get(phoneNumberId);
  if (known !== undefined) return { ...known, known: true };
  return {
    phone_number_id: phoneNumberId,
    waba_id: state.settings.defaultWabaId,
    display_phone_number: state.settings.defaultDisplayPhoneNumber,
    known: false,
  };
}
