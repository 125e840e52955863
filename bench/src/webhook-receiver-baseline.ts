import { createHmac, timingSafeEqual } from 'node:crypto';
import express from 'express';
import { Pool } from 'pg';
import { serveForked } from './serve';

// The baseline of the ingress benchmark: the least any durable webhook receiver must do. Check the
// X-Hub-Signature-256 HMAC over the raw body, insert the raw body into a PostgreSQL table, answer 200 once committed.
async function main(): Promise<void> {
  const secret = process.env.APP_SECRET ?? '';
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  await pool.query('CREATE SCHEMA IF NOT EXISTS bench');
  await pool.query(
    'CREATE TABLE IF NOT EXISTS bench.baseline_webhooks (id bigserial PRIMARY KEY, raw_body text NOT NULL, received_at timestamptz NOT NULL DEFAULT now())',
  );
  const app = express();
  app.post('/webhook', express.raw({ type: 'application/json', limit: '3mb' }), async (req, res) => {
    const raw = req.body as Buffer;
    const given = Buffer.from(req.get('x-hub-signature-256') ?? '');
    const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      res.sendStatus(401);
      return;
    }
    await pool.query('INSERT INTO bench.baseline_webhooks (raw_body) VALUES ($1)', [raw.toString('utf8')]);
    res.sendStatus(200);
  });
  serveForked(app, () => pool.end());
}

void main();
