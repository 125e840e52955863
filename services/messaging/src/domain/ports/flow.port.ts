import type { FlowDefinition, FlowSessionStatus, FlowStatus } from '@bm/contracts';
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

/** A flow at its current version, as the domain sees it. */
export interface Flow {
  id: string;
  tenantId: number;
  channelAccountId: string;
  name: string;
  status: FlowStatus;
  version: number;
  definition: FlowDefinition;
  createdAt: Date;
  updatedAt: Date;
}

interface FlowContent {
  channelAccountId: string;
  name: string;
  definition: FlowDefinition;
}

/** Flows and their versions: every save adds a version, the flow points at the current one. */
export interface FlowStore {
  insert(tx: Tx, flow: FlowContent & { id: string; tenantId: number }): Promise<Flow>;
  /** A new version becomes current; sessions keep the version they started on. Undefined for an unknown flow. */
  saveVersion(tx: Tx, id: string, tenantId: number, change: FlowContent): Promise<Flow | undefined>;
  setStatus(id: string, tenantId: number, status: FlowStatus): Promise<Flow | undefined>;
  find(id: string, tenantId: number): Promise<Flow | undefined>;
  list(
    tenantId: number,
    filter: { channelAccountId?: string; status?: FlowStatus },
    page: number,
    perPage: number,
  ): Promise<{ items: Flow[]; total: number }>;
  /** The account's active flows at their current versions, oldest first (the first match wins). */
  activeForAccount(tx: Tx, channelAccountId: string): Promise<Flow[]>;
  /** The definition a session runs: the version it started on. */
  definitionOf(tx: Tx, flowId: string, version: number): Promise<FlowDefinition | undefined>;
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
