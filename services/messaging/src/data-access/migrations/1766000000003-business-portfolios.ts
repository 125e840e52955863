import { sqlMigration } from '@bm/platform';

/**
 * Messaging limits per business portfolio (CONTRACT.md, the network of late 2026): every number of a portfolio
 * (`business_id`, by default its `waba_id`) draws on one rolling 24 h capacity. Existing accounts get their
 * `waba_id`; the conversations and reservations that count against a limit carry their number's portfolio,
 * filled from the account by a trigger on insert, so that a replica still running the previous code during a
 * rolling upgrade writes rows that count too.
 */
export const BusinessPortfolios1766000000003 = sqlMigration('BusinessPortfolios1766000000003', {
  up: [
    'ALTER TABLE messaging.channel_accounts ADD COLUMN business_id text',
    'UPDATE messaging.channel_accounts SET business_id = waba_id',
    'ALTER TABLE messaging.channel_accounts ALTER COLUMN business_id SET NOT NULL',
    'CREATE INDEX channel_accounts_business_idx ON messaging.channel_accounts (business_id)',
    `CREATE FUNCTION messaging.fill_business_id() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.business_id IS NULL THEN
          SELECT business_id INTO NEW.business_id FROM messaging.channel_accounts WHERE id = NEW.channel_account_id;
        END IF;
        RETURN NEW;
      END $$`,
    ...['conversations', 'capacity_reservations'].flatMap((table) => [
      `ALTER TABLE messaging.${table} ADD COLUMN business_id text`,
      `UPDATE messaging.${table} t SET business_id = a.business_id
         FROM messaging.channel_accounts a WHERE a.id = t.channel_account_id`,
      `ALTER TABLE messaging.${table} ALTER COLUMN business_id SET NOT NULL`,
      `CREATE TRIGGER ${table}_business_id BEFORE INSERT ON messaging.${table}
         FOR EACH ROW EXECUTE FUNCTION messaging.fill_business_id()`,
    ]),
    'CREATE INDEX conversations_business_window_idx ON messaging.conversations (business_id, opened_at)',
    `CREATE INDEX conversations_business_customer_idx
       ON messaging.conversations (business_id, customer_phone, opened_at)`,
    'CREATE INDEX capacity_reservations_business_idx ON messaging.capacity_reservations (business_id)',
  ],
  down: [
    'DROP TRIGGER conversations_business_id ON messaging.conversations',
    'DROP TRIGGER capacity_reservations_business_id ON messaging.capacity_reservations',
    'DROP FUNCTION messaging.fill_business_id()',
    'ALTER TABLE messaging.conversations DROP COLUMN business_id',
    'ALTER TABLE messaging.capacity_reservations DROP COLUMN business_id',
    'ALTER TABLE messaging.channel_accounts DROP COLUMN business_id',
  ],
});
