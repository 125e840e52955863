import type { Role } from '@bm/contracts';
import { IsNull, type DataSource } from 'typeorm';
import type { ApiKeys, ApiKeySummary, KeyCredential } from '../domain/ports/api-keys.port';
import { ApiKeyEntity } from './api-key.entity';

export class ApiKeyRepository implements ApiKeys {
  constructor(private readonly dataSource: DataSource) {}

  async insert(
    keyId: string,
    tenantId: number,
    secretHash: Buffer,
    details: { name: string | null; role: Role | null } = { name: null, role: null },
  ): Promise<Date> {
    const repo = this.dataSource.getRepository(ApiKeyEntity);
    const saved = await repo.save(
      repo.create({
        id: keyId,
        tenantId,
        secretHash,
        revokedAt: null,
        name: details.name,
        role: details.role,
      }),
    );
    return saved.createdAt;
  }

  async findCredential(keyId: string): Promise<KeyCredential | undefined> {
    const rows: Array<{
      tenant_id: number;
      plan: string;
      secret_hash: Buffer;
      revoked_at: Date | null;
      role: Role | null;
    }> = await this.dataSource.query(
      `SELECT k.tenant_id, t.plan, k.secret_hash, k.revoked_at, k.role
           FROM gateway.api_keys k JOIN gateway.tenants t ON t.id = k.tenant_id
          WHERE k.id = $1`,
      [keyId],
    );
    const row = rows[0];
    if (!row) return undefined;
    return {
      keyId,
      tenantId: row.tenant_id,
      plan: row.plan,
      secretHash: row.secret_hash,
      revoked: row.revoked_at !== null,
      role: row.role,
    };
  }

  /** The tenant's keys, newest first (ULID order is creation order). */
  async listForTenant(tenantId: number): Promise<ApiKeySummary[]> {
    const rows = await this.dataSource.getRepository(ApiKeyEntity).find({
      where: { tenantId },
      order: { id: 'DESC' },
      select: { id: true, createdAt: true, revokedAt: true, name: true, role: true },
    });
    return rows.map((r) => ({
      keyId: r.id,
      createdAt: r.createdAt,
      revokedAt: r.revokedAt,
      name: r.name,
      role: r.role,
    }));
  }

  /** Marks the key revoked; false when no active key has that id. */
  async revoke(keyId: string): Promise<Date | undefined> {
    const now = new Date();
    const result = await this.dataSource
      .getRepository(ApiKeyEntity)
      .update({ id: keyId, revokedAt: IsNull() }, { revokedAt: now });
    return result.affected ? now : undefined;
  }
}
