import type { Tx } from './unit-of-work.port';

/** The upstream's quality flag on a template (FLAGGED): still sendable, it may be paused or disabled later. */
export interface TemplateFlag {
  reason: string | null;
  flaggedAt: Date;
}

/** A template of a sending number, as the upstream last described it. */
export interface Template {
  id: string;
  channelAccountId: string;
  upstreamId: string | null;
  name: string;
  language: string;
  status: string;
  category: string;
  headerFormat: string | null;
  headerSampleMediaUrl: string | null;
  components: Array<Record<string, unknown>>;
  flag: TemplateFlag | null;
  /** The upstream's reason while the template is REJECTED; null otherwise or when it gave none. */
  rejectedReason: string | null;
}

/** A template as the upstream describes it, before it is stored for a number. */
export type TemplateInput = Omit<Template, 'id' | 'channelAccountId' | 'flag' | 'rejectedReason'>;

/** What the upstream's status updates set on a template. */
export type TemplateState = Pick<Template, 'status' | 'category' | 'flag' | 'rejectedReason'>;

/** The accounts' templates, as the upstream last described them. */
export interface TemplateStore {
  /** Inserts or refreshes the account's templates by (name, language); returns the stored rows. */
  upsertMany(tx: Tx, channelAccountId: string, templates: TemplateInput[]): Promise<Template[]>;
  /** The template of that name (and language, when given); inside a transaction pass it as `tx`. */
  find(channelAccountId: string, name: string, language?: string, tx?: Tx): Promise<Template | undefined>;
  listForAccounts(accountIds: string[], status?: string): Promise<Template[]>;
  /** An account's template, locked until the transaction ends, by name and language in either spelling. */
  findForUpdate(
    tx: Tx,
    channelAccountId: string,
    name: string,
    language: string,
  ): Promise<Template | undefined>;
  setState(tx: Tx, id: string, state: TemplateState): Promise<void>;
}
