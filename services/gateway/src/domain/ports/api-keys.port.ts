import type { Role } from '@bm/contracts';

/** What authentication needs of a key: its hash, its tenant and the tenant's plan. */
export interface KeyCredential {
  keyId: string;
  tenantId: number;
  plan: string;
  secretHash: Buffer;
  revoked: boolean;
  /** null: full tenant access. */
  role: Role | null;
}

export interface ApiKeySummary {
  keyId: string;
  createdAt: Date;
  revokedAt: Date | null;
  name: string | null;
  role: Role | null;
}

/** API keys as stored: the SHA-256 of each key's secret part, never the key itself. */
export interface ApiKeys {
  /** Stores a new key (a null role: full tenant access); answers when it was created. */
  insert(
    keyId: string,
    tenantId: number,
    secretHash: Buffer,
    details?: { name: string | null; role: Role | null },
  ): Promise<Date>;
  findCredential(keyId: string): Promise<KeyCredential | undefined>;
  /** The tenant's keys, newest first. */
  listForTenant(tenantId: number): Promise<ApiKeySummary[]>;
  /** Marks the key revoked; when it was, or undefined when no active key has that id. */
  revoke(keyId: string): Promise<Date | undefined>;
}

/** When each API key was last used, as every replica's requests saw it. */
export interface KeyUsage {
  /** Notes a use of the key; never fails the request (a lost note only makes "last used" older). */
  record(keyId: string, now?: number): void;
  lastUsed(keyIds: string[]): Promise<Map<string, Date>>;
}
