import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A row of a service's `outbox` table (in the data source's schema); created by `createOutboxTable`. */
@Entity({ name: 'outbox' })
export class OutboxEventEntity {
  // bigint comes back as a string from pg, so ids never lose precision.
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column({ name: 'message_id', type: 'text' })
  messageId!: string;

  @Column({ name: 'routing_key', type: 'text' })
  routingKey!: string;

  @Column({ type: 'jsonb' })
  payload!: object;

  @Column({ type: 'jsonb' })
  headers!: Record<string, unknown>;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'published_at', type: 'timestamptz', nullable: true })
  publishedAt!: Date | null;

  @Column({ type: 'integer' })
  attempts!: number;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;
}
