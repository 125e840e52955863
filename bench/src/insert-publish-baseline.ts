import express from 'express';
import { Pool } from 'pg';
import amqp from 'amqplib';

// The baseline of the send benchmark: what any such endpoint must do at least. Parse JSON, insert one row,
// publish one persistent message on a confirm channel and wait for the confirm, answer 202.
async function main(): Promise<void> {
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  await pool.query('CREATE SCHEMA IF NOT EXISTS bench');
  await pool.query(
    'CREATE TABLE IF NOT EXISTS bench.baseline_messages (id bigserial PRIMARY KEY, body jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())',
  );
  const connection = await amqp.connect(process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672');
  const channel = await connection.createConfirmChannel();
  await channel.assertExchange('bench.baseline', 'topic', { durable: true, autoDelete: true });
  const app = express();
  app.use(express.json());
  app.post('/send', async (req, res) => {
    const rows = await pool.query<{ id: string }>(
      'INSERT INTO bench.baseline_messages (body) VALUES ($1) RETURNING id',
      [JSON.stringify(req.body)],
    );
    await new Promise<void>((resolve, reject) =>
      channel.publish(
        'bench.baseline',
        'sent',
        Buffer.from(JSON.stringify({ id: rows.rows[0].id })),
        { persistent: true },
        (err) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve()),
      ),
    );
    res.status(202).json({ success: true, data: { id: Number(rows.rows[0].id) } });
  });
  const server = app.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
  });
  // Requests still in flight when the load ends finish before the broker and the pool close.
  process.on('SIGTERM', () => {
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 2_000).unref();
    server.close(() => {
      void connection
        .close()
        .then(() => pool.end())
        .then(() => process.exit(0));
    });
  });
}

void main();
