import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'api_keys' })
export class ApiKeyEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'integer' })
  tenantId!: number;

  /** SHA-256 of the key's secret part; the key itself is never stored. */
  @Column({ name: 'secret_hash', type: 'bytea' })
  secretHash!: Buffer;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'name', type: 'text', nullable: true })
  name!: string | null;

  /** null: full tenant access. */
  @Column({ name: 'role', type: 'text', nullable: true })
  role!: 'viewer' | 'agent' | 'admin' | 'owner' | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;
}
