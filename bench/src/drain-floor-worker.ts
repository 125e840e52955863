import { Agent } from 'node:http';
import { join } from 'node:path';
import amqp from 'amqplib';
import { Pool } from 'pg';
import { postJson } from './harness';

// The floor of the drain (and of every delivery: consume, POST, record, ack): a minimal worker that consumes deliver
// commands from a RabbitMQ queue, POSTs each command's upstream body to the sandbox with a keep-alive pool at the
// worker's concurrency, updates the message's row with the answer's id (one UPDATE each) and acks. No claim, no
// throughput limiter, no outbox. The parent starts its CPU window between `ready` (queue filled) and `go`.

interface Command {
  id: number;
  body: unknown;
}

// The Graph API version the worker speaks (messaging's UPSTREAM_API_VERSION, v24.0 by default): the sandbox plays
// the wire of that version, whose work per send (user ids, the portfolio's limit, pricing) the floor must share.
const { loadMessagingConfig } = require(
  join(__dirname, '..', '..', 'services', 'messaging', 'dist', 'config.js'),
) as {
  loadMessagingConfig: (env: NodeJS.ProcessEnv) => { UPSTREAM_API_VERSION: string };
};
const version = process.env.FLOOR_API_VERSION ?? loadMessagingConfig(process.env).UPSTREAM_API_VERSION;

const sandbox = new URL(
  `/${version}/${process.env.FLOOR_PHONE_NUMBER_ID ?? ''}/messages`,
  process.env.FLOOR_SANDBOX_URL ?? 'http://127.0.0.1:4010',
);
const concurrency = Number(process.env.FLOOR_CONCURRENCY ?? 200);
const messages = Number(process.env.FLOOR_MESSAGES ?? 10_000);
const agent = new Agent({ keepAlive: true, maxSockets: concurrency });

const post = (body: Buffer) => postJson(agent, sandbox, body, { authorization: 'Bearer bench-token' });

async function main(): Promise<void> {
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  await pool.query('CREATE SCHEMA IF NOT EXISTS bench');
  await pool.query(
    `CREATE TABLE IF NOT EXISTS bench.floor_messages (id bigserial PRIMARY KEY, status text NOT NULL,
       provider_message_id text, sent_at timestamptz)`,
  );
  const ids = (
    await pool.query<{ id: string }>(
      `INSERT INTO bench.floor_messages (status) SELECT 'queued' FROM generate_series(1, $1) RETURNING id`,
      [messages],
    )
  ).rows.map((r) => Number(r.id));
  const connection = await amqp.connect(process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672');
  const publisher = await connection.createConfirmChannel();
  const queue = `bench.floor.deliver.${process.pid}`;
  await publisher.assertQueue(queue, { durable: true });
  ids.forEach((id, i) => {
    const body = {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: `1415${String(5_000_000 + i).padStart(7, '0')}`,
      biz_opaque_callback_data: `${id}.1`,
      type: 'text',
      text: { preview_url: false, body: 'Your order has shipped.' },
    };
    publisher.sendToQueue(queue, Buffer.from(JSON.stringify({ id, body })), { persistent: true });
  });
  await publisher.waitForConfirms();
  await publisher.close();

  // Filled: the parent starts its CPU window, then says `go`.
  await new Promise<void>((resolve) => {
    process.once('message', () => resolve());
    process.send?.({ ready: true });
  });
  const channel = await connection.createChannel();
  await channel.prefetch(concurrency);
  let acked = 0;
  let failures = 0;
  const started = performance.now();
  await new Promise<void>((resolve) => {
    void channel.consume(queue, (msg) => {
      if (!msg) return;
      const command = JSON.parse(msg.content.toString('utf8')) as Command;
      void post(Buffer.from(JSON.stringify(command.body)))
        .then(async (answer) => {
          const id = (JSON.parse(answer.text) as { messages?: Array<{ id: string }> }).messages?.[0]?.id;
          if (answer.status !== 200 || id === undefined) failures += 1;
          await pool.query(
            `UPDATE bench.floor_messages SET status = 'sent', provider_message_id = $2, sent_at = now() WHERE id = $1`,
            [command.id, id ?? null],
          );
        })
        .catch(() => {
          failures += 1;
        })
        .finally(() => {
          channel.ack(msg);
          acked += 1;
          if (acked === messages) resolve();
        });
    });
  });
  const seconds = (performance.now() - started) / 1000;
  await channel.deleteQueue(queue);
  await connection.close();
  await pool.end();
  agent.destroy();
  process.send?.(
    { messages, failures, seconds, perSecond: (messages - failures) / seconds, concurrency },
    () => process.exit(0),
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`drain floor failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
