/** A delivery leased for one attempt, with everything the attempt needs. */
export interface ClaimedDelivery {
  id: string;
  tenantId: number;
  eventId: string;
  body: string;
  /** Attempts already finished; this one is number attemptCount + 1. */
  attemptCount: number;
  leaseToken: string;
  url: string | null;
  /** Sealed secrets that sign now, the newest first. */
  sealedSecrets: string[];
  /** The trace of the event's domain event, when it had one. */
  traceparent: string | null;
}

export interface AttemptRecord {
  deliveryId: string;
  leaseToken: string;
  status: 'pending' | 'delivered' | 'failed';
  /** When the next attempt is due (pending only). */
  retryInMs: number;
  url: string | null;
  at: Date;
  durationMs: number;
  httpStatus: number | null;
  error: string | null;
  responseExcerpt: string | null;
}

/** What one pass of the worker asks: record the finished attempts, then lease due deliveries. */
export interface PassRequest {
  finished: AttemptRecord[];
  /** Deliveries to lease at most (0: record only). */
  claimLimit: number;
  /** Attempts in flight toward one endpoint across replicas. */
  perEndpoint: number;
  leaseMs: number;
  token: string;
  /** The worker goes idle unless this pass claims something: answer when it should look again. */
  wantNextDue: boolean;
}

export interface PassResult {
  /** Ids of the finished deliveries recorded; one missing was no longer leased by us. */
  recorded: Set<string>;
  claimed: ClaimedDelivery[];
  /** Asked with wantNextDue and nothing claimed: the earliest future retry or lease end, if any. */
  nextDueAt?: Date;
}

/** dispatcher.deliveries as the delivery worker uses them: record outcomes and lease, release. */
export interface Deliveries {
  /** Records the finished attempts still leased by us, then leases due deliveries, in one statement. */
  recordAndClaim(p: PassRequest): Promise<PassResult>;
  /** Leases due deliveries (a pass that records nothing). */
  claim(limit: number, perEndpoint: number, leaseMs: number, token: string): Promise<ClaimedDelivery[]>;
  /** Gives a leased delivery back at once (the dispatcher is stopping mid-attempt); the attempt is not counted. */
  release(deliveryId: string, leaseToken: string): Promise<void>;
}
