import type { FlowDefinition, FlowStatus } from '@bm/contracts';
import type { Tx } from './unit-of-work.port';

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
