import type { Logger, RateCard, SecretBox } from '@bm/platform';
import type { MessagingConfig } from '../config';
import type { ChannelAccountStore } from './ports/account.port';
import type { CapacityLedger } from './ports/capacity.port';
import type { TemplateStore } from './ports/template.port';
import type { CustomerStateStore, InboundMessageStore } from './ports/customer.port';
import type { ConversationStore } from './ports/conversation.port';
import type { DashboardUserDirectory } from './ports/dashboard-users.port';
import type { MessageStatsReader, MessageStatsUpkeep } from './ports/stats.port';
import type { FlowSessionStore } from './ports/flow-session.port';
import type { FlowStore } from './ports/flow.port';
import type { IdempotentRequests } from './ports/idempotency.port';
import type { MessageLogStore, MessageLogWriterPort } from './ports/message-log.port';
import type { MessageReader } from './ports/message-reader.port';
import type { DeliveryQueueWatch, MessageSweeps } from './ports/message-sweep.port';
import type { SendHandOver, SendQueue } from './ports/send-queue.port';
import type { StatusReportIntake, StatusReportStore } from './ports/status-report.port';
import type { EventOutbox } from './ports/outbox.port';
import type { StatusEvents } from './ports/status-events.port';
import type { UnitOfWork } from './ports/unit-of-work.port';
import type { UpstreamAccountApi, UpstreamMedia, UpstreamSender } from './ports/upstream.port';

/**
 * Every port the messaging domain declares, built once in messaging.ts. A use case names the few it uses
 * (`Pick<MessagingDeps, ...>`), so its signature says what it touches.
 */
export interface MessagingDeps {
  config: MessagingConfig;
  logger: Logger;
  unitOfWork: UnitOfWork;
  outbox: EventOutbox;
  /** Status events sent after their commit (the send's answer and the receipts' moves). */
  statusEvents: StatusEvents;
  secrets: Pick<SecretBox, 'seal' | 'open'>;
  upstream: UpstreamSender & UpstreamAccountApi & UpstreamMedia;
  accounts: ChannelAccountStore;
  templates: TemplateStore;
  /** New message logs and their moves between statuses. */
  messages: MessageLogStore;
  /** Reads of message logs. */
  reader: MessageReader;
  /** The send path's claims and their settlement. */
  sendQueue: SendQueue;
  /** The send path's claims, paced and handed to the upstream. */
  handOver: SendHandOver;
  statusReports: StatusReportStore;
  /** Where status reports come in, to be applied in batches. */
  statusIntake: StatusReportIntake;
  /** The scheduler pass's batches (due, stranded, unfinished). */
  sweeps: MessageSweeps;
  /** When the delivery queue was last seen drained, by which the sweep tells a lost command from a waiting one. */
  deliveryQueue: DeliveryQueueWatch;
  /** Batches the send path's inserts (group commit). */
  messageWriter: MessageLogWriterPort;
  customers: CustomerStateStore;
  inbound: InboundMessageStore;
  /** The live-chat inbox's conversations and threads. */
  conversations: ConversationStore;
  /** The tenant's dashboard users (kept by the gateway): who a conversation may be assigned to. */
  dashboardUsers: DashboardUserDirectory;
  stats: MessageStatsReader & MessageStatsUpkeep;
  ledger: CapacityLedger;
  idempotency: IdempotentRequests;
  flows: FlowStore;
  flowSessions: FlowSessionStore;
  /** The operator's prices, by which a priced message's cost is reckoned. */
  rateCard: RateCard;
}
