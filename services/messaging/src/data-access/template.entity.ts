import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'templates' })
export class TemplateEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'channel_account_id', type: 'text' })
  channelAccountId!: string;

  @Column({ name: 'upstream_id', type: 'text', nullable: true })
  upstreamId!: string | null;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  language!: string;

  @Column({ type: 'text' })
  status!: string;

  @Column({ type: 'text' })
  category!: string;

  @Column({ name: 'header_format', type: 'text', nullable: true })
  headerFormat!: string | null;

  @Column({ name: 'header_sample_media_url', type: 'text', nullable: true })
  headerSampleMediaUrl!: string | null;

  @Column({ type: 'jsonb' })
  components!: unknown[];

  @Column({ type: 'text', nullable: true })
  quality!: string | null;

  @Column({ name: 'flagged_at', type: 'timestamptz', nullable: true })
  flaggedAt!: Date | null;

  @Column({ name: 'flag_reason', type: 'text', nullable: true })
  flagReason!: string | null;

  @Column({ name: 'rejected_reason', type: 'text', nullable: true })
  rejectedReason!: string | null;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
