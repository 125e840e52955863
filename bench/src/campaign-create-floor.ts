import express from 'express';
import { Pool } from 'pg';
import { serveForked } from './serve';

// The floor of a campaign's create: parse the JSON body of its recipients and write them durably in one statement
// (one multi-row insert from arrays, one commit) before answering 202. No validation, no phone normalisation.
async function main(): Promise<void> {
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 4 });
  await pool.query('CREATE SCHEMA IF NOT EXISTS bench');
  await pool.query(
    'CREATE TABLE IF NOT EXISTS bench.floor_recipients (id bigserial PRIMARY KEY, campaign text NOT NULL, phone text NOT NULL, name text)',
  );
  const app = express();
  app.use(express.json({ limit: '10mb' }));
  let campaigns = 0;
  app.post('/api/v1/campaigns', async (req, res) => {
    const recipients = (req.body as { recipients: Array<{ phone: string; name?: string }> }).recipients;
    campaigns += 1;
    const campaign = `floor-${process.pid}-${campaigns}`;
    await pool.query(
      `INSERT INTO bench.floor_recipients (campaign, phone, name)
       SELECT $1, p, n FROM unnest($2::text[], $3::text[]) AS r(p, n)`,
      [campaign, recipients.map((r) => r.phone), recipients.map((r) => r.name ?? null)],
    );
    res.status(202).json({ success: true, data: { campaign_id: campaign, total_count: recipients.length } });
  });
  serveForked(app, () => pool.end());
}

void main();
