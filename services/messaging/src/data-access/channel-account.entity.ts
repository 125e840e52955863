import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

@Entity({ name: 'channel_accounts' })
export class ChannelAccountEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'tenant_id', type: 'integer' })
  tenantId!: number;

  @Column({ name: 'phone_number_id', type: 'text' })
  phoneNumberId!: string;

  @Column({ name: 'waba_id', type: 'text' })
  wabaId!: string;

  /** The business portfolio: its numbers share one daily limit and tier. */
  @Column({ name: 'business_id', type: 'text' })
  businessId!: string;

  @Column({ name: 'display_phone_number', type: 'text' })
  displayPhoneNumber!: string;

  /** The upstream access token, sealed with ENCRYPTION_KEY; never returned. */
  @Column({ name: 'access_token_sealed', type: 'text' })
  accessTokenSealed!: string;

  @Column({ type: 'text' })
  tier!: string;

  @Column({ name: 'throughput_per_second', type: 'integer' })
  throughputPerSecond!: number;

  @Column({ type: 'boolean' })
  active!: boolean;

  @Column({ name: 'webhooks_subscribed', type: 'boolean', default: false })
  webhooksSubscribed!: boolean;

  /** The latest `phone_number_quality_update` event (FLAGGED, UNFLAGGED, UPGRADE…); null until one comes. */
  @Column({ name: 'quality_event', type: 'text', nullable: true })
  qualityEvent!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
