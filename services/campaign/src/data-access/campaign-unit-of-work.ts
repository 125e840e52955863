import { enqueueEvents, withTransaction, type IdempotencyStore, type OutboxEvent } from '@bm/platform';
import type { DataSource, EntityManager } from 'typeorm';
import type {
  CampaignTx,
  EventOutbox,
  IdempotentRequests,
  RecordAnswer,
  UnitOfWork,
} from '../domain/ports/unit-of-work.port';
import { CampaignRepository } from './campaign.repository';
import { CAMPAIGN_SCHEMA } from './data-source';
import { OptOutRepository } from './opt-out.repository';
import { RecipientRepository } from './recipient.repository';

/** The repositories and the outbox of one transaction. */
class CampaignTransaction implements CampaignTx {
  readonly campaigns: CampaignRepository;
  readonly uploads: CampaignRepository;
  readonly recipients: RecipientRepository;
  readonly optOuts: OptOutRepository;
  readonly outbox: EventOutbox;

  constructor(readonly manager: EntityManager) {
    this.campaigns = new CampaignRepository(manager);
    this.uploads = this.campaigns;
    this.recipients = new RecipientRepository(manager);
    this.optOuts = new OptOutRepository(manager);
    this.outbox = {
      enqueue: async (events: readonly OutboxEvent[]) => {
        await enqueueEvents(manager, CAMPAIGN_SCHEMA, events);
      },
    };
  }
}

/** Units of work on platform's `withTransaction`: the state change and its outbox events commit together. */
export class CampaignUnitOfWork implements UnitOfWork {
  constructor(private readonly dataSource: DataSource) {}

  run<T>(work: (tx: CampaignTx) => Promise<T>): Promise<T> {
    return withTransaction(this.dataSource, (manager) => work(new CampaignTransaction(manager)));
  }
}

/** Platform's Idempotency-Key store, recording the answer in the campaign's unit of work. */
export class CampaignIdempotency implements IdempotentRequests {
  constructor(private readonly store: IdempotencyStore) {}

  run<T>(
    tenantId: number,
    key: string | undefined,
    request: unknown,
    work: (record: RecordAnswer<T>) => Promise<{ status: number; body: T }>,
  ) {
    return this.store.run<T>(tenantId, key, request, (record) =>
      work((tx, status, body) => {
        if (!(tx instanceof CampaignTransaction)) throw new Error('not a campaign unit of work');
        return record(tx.manager, status, body);
      }),
    );
  }
}
