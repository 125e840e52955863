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
  /** The business portfolio the number belongs to; its WABA id when not set. */
  business_id?: string;
}

/** A customer as one business portfolio sees them: a phone and/or a business-scoped user id. */
export interface Customer {
  business_id: string;
  /** Absent for a customer the sandbox only knows by user id. */
  wa_id?: string;
  user_id: string;
  username?: string;
  /** Webhooks hide the phone: no `wa_id`/`from` inbound, no `recipient_id` on statuses. */
  username_only: boolean;
  /** The customer's marketing preference, once they sent one. */
  marketing?: 'stop' | 'resume';
}

/** A business portfolio's daily business-initiated limit, set through `PUT /_sandbox/businesses/:id`. */
export interface BusinessRecord {
  business_id: string;
  max_daily_conversations_per_business: string;
  /** Customer user id -> when the portfolio last reached them with a business-initiated message. */
  reached: Map<string, number>;
}

/** Every call to the send endpoint, accepted or rejected. */
export interface SendRecord {
  seq: number;
  at: string;
  phone_number_id: string;
  to?: string;
  wa_id?: string;
  /** The business-scoped user id the send went to (`recipient`), or the customer's own for a send by phone. */
  user_id?: string;
  body: unknown;
  result: 'accepted' | 'rejected';
  http_status: number;
  response: unknown;
  message_id?: string;
  error_code?: number;
  fault?: string;
  /** Accepted, but the answer was never given: the connection was reset. */
  answer_dropped?: boolean;
  /** Answered `held_for_quality_assessment`. */
  held?: boolean;
  /** The pricing the statuses report (`type`, `category`). */
  pricing?: { type: string; category: string };
  /** Statuses reported by webhook so far, in order. */
  statuses: string[];
}

export interface WebhookAttempt {
  at: string;
  http_status?: number;
  error?: string;
}

/** A read receipt the business sent for a customer's message. */
export interface ReadReceiptRecord {
  phone_number_id: string;
  message_id: string;
  typing_indicator: boolean;
  received_at: string;
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
  graphVersion: string;
}

/** A media item's bytes; `redirect` makes its lookup or its download answer a 302 instead (to test refusing it). */
export interface MediaItem {
  bytes: Buffer;
  mime_type: string;
  sha256: string;
  redirect?: 'lookup' | 'download';
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
  /** Customers by `business_id|wa:<phone>` and `business_id|uid:<user id>`. */
  customers: Map<string, Customer>;
  /** Portfolios whose daily limit is enforced. */
  businesses: Map<string, BusinessRecord>;
  /** `phone_number_id|user id` -> when the customer last wrote (their service window). */
  windows: Map<string, number>;
  webhooks: WebhookRecord[];
  /** Read receipts taken (`status: read` on the messages endpoint), oldest first. */
  readReceipts: ReadReceiptRecord[];
  /** Media items the upstream still has, by media id (inbound customers' and uploaded ones). */
  media: Map<string, MediaItem>;
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
    graphVersion: config.SANDBOX_GRAPH_VERSION,
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
    customers: new Map(),
    businesses: new Map(),
    windows: new Map(),
    webhooks: [],
    readReceipts: [],
    media: new Map(),
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
  state.customers.clear();
  state.businesses.clear();
  state.windows.clear();
  state.webhooks.length = 0;
  state.readReceipts.length = 0;
  state.media.clear();
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

/** The business portfolio of a number: its `business_id`, else its WABA id. */
export function businessOf(number: PhoneNumberRecord): string {
  return number.business_id ?? number.waba_id;
}

/** The major Graph API version of `vNN.N` (0 when unreadable). */
export function graphMajor(version: string | undefined): number {
  const match = version === undefined ? null : /^v(\d+)\./.exec(version);
  return match === null ? 0 : Number(match[1]);
}

/** The first version whose webhooks and answers follow the 2026 wire (no `conversation`, PMP `type`, ...). */
export const WIRE_2026_MAJOR = 24;

/** True when the sandbox plays v24.0 or later: by its `graph_version` setting or the version of the call. */
export function playsWire2026(state: SandboxState, pathVersion?: string): boolean {
  return Math.max(graphMajor(state.settings.graphVersion), graphMajor(pathVersion)) >= WIRE_2026_MAJOR;
}
