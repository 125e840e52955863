import type {
  IdempotentRequests as PlatformIdempotentRequests,
  OutboxEvent,
  RecordAnswer as PlatformRecordAnswer,
} from '@bm/platform';
import type { Campaigns } from './campaigns.port';
import type { Uploads } from './uploads.port';
import type { OptOuts } from './opt-outs.port';
import type { Recipients } from './recipients.port';

/** Events and commands to publish once the unit of work commits (the outbox). */
export interface EventOutbox {
  enqueue(events: readonly OutboxEvent[]): Promise<void>;
}

/** The stores as one transaction sees them: what they write commits or rolls back together. */
export interface CampaignTx {
  campaigns: Campaigns;
  uploads: Uploads;
  recipients: Recipients;
  optOuts: OptOuts;
  outbox: EventOutbox;
}

/** Runs work in one short transaction; never around a call to another service. */
export interface UnitOfWork {
  run<T>(work: (tx: CampaignTx) => Promise<T>): Promise<T>;
}

/** Stores a request's answer in the unit of work that created what it answers, so both commit together. */
export type RecordAnswer<T> = PlatformRecordAnswer<T, CampaignTx>;

/** Idempotency-Key handling: a replay answers the first answer and creates nothing. */
export type IdempotentRequests = PlatformIdempotentRequests<CampaignTx>;
