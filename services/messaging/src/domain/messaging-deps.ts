import type { DataSource } from 'typeorm';
import type { IdempotencyStore, Logger, RedisClient, SecretBox } from '@bm/platform';
import type { MessagingConfig } from '../config';
import type { ChannelAccountRepository } from '../data-access/channel-account.repository';
import type { ConversationLedger } from '../data-access/conversation-ledger.repository';
import type { CustomerStateRepository } from '../data-access/customer-state.repository';
import type { FlowRepository } from '../data-access/flow.repository';
import type { FlowSessionRepository } from '../data-access/flow-session.repository';
import type { MessageLogRepository } from '../data-access/message-log.repository';
import type { MessageSweepRepository } from '../data-access/message-sweep.repository';
import type { MessageLogWriter } from '../data-access/message-log-writer';
import type { TemplateRepository } from '../data-access/template.repository';
import type { CloudApiClient } from '../data-access/upstream/cloud-api.client';

/** What the messaging use cases need; built once in messaging.ts. */
export interface MessagingDeps {
  config: MessagingConfig;
  logger: Logger;
  dataSource: DataSource;
  redis: RedisClient;
  secrets: SecretBox;
  upstream: CloudApiClient;
  accounts: ChannelAccountRepository;
  templates: TemplateRepository;
  messages: MessageLogRepository;
  /** The scheduler pass's batches (due, stranded, unfinished). */
  sweeps: MessageSweepRepository;
  /** Batches the send path's inserts (group commit). */
  messageWriter: MessageLogWriter;
  customers: CustomerStateRepository;
  ledger: ConversationLedger;
  idempotency: IdempotencyStore;
  flows: FlowRepository;
  flowSessions: FlowSessionRepository;
}
