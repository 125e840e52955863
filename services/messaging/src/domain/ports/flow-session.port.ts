import type { FlowSessionStatus } from '@bm/contracts';
import type { Tx } from './unit-of-work.port';

/** A customer's run through one version of a flow. */
export interface FlowSession {
  id: string;
  tenantId: number;
  flowId: string;
  flowVersion: number;
  channelAccountId: string;
  phone: string;
  status: FlowSessionStatus;
  /** The wait step it stands at; null once ended. */
  currentStep: string | null;
  variables: Record<string, string>;
  startedAt: Date;
  expiresAt: Date | null;
  endedAt: Date | null;
}

/** Flow sessions; at most one active per customer of a number. */
export interface FlowSessionStore {
  /** The customer's running session, locked for the caller's transaction. */
  lockActive(tx: Tx, channelAccountId: string, phone: string): Promise<FlowSession | undefined>;
  /** Serialises the messages of one customer of one number until the transaction ends. */
  lockCustomer(tx: Tx, channelAccountId: string, phone: string): Promise<void>;
  insert(tx: Tx, session: FlowSession): Promise<void>;
  /** Writes where the session stands: its status, step, variables and times. */
  update(tx: Tx, session: FlowSession): Promise<void>;
  /** Ends up to `limit` waiting sessions past their time (timed_out). */
  expireDue(tx: Tx, limit: number): Promise<FlowSession[]>;
  list(
    flowId: string,
    tenantId: number,
    status: FlowSessionStatus | undefined,
    page: number,
    perPage: number,
  ): Promise<{ items: FlowSession[]; total: number }>;
}
