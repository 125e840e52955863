import { join } from 'node:path';
import { Client } from 'pg';

// The baseline of the queued-to-sent figures: the sandbox's own ceiling for the same sends. One process replays the
// upstream bodies of an account's message logs straight to POST /{version}/{phone_number_id}/messages with the
// messaging worker's own HTTP client (its CloudApiClient: axios, keep-alive agent, timeout) and as many calls in
// flight as the worker allows (SEND_CONCURRENCY), both read from messaging's build with the worker's environment.
// No claim, no throughput limiter, no status update: only the HTTP calls the worker cannot avoid.

const MESSAGING_DIST = join(__dirname, '..', '..', 'services', 'messaging', 'dist');

interface SendResult {
  ok: boolean;
}
interface CloudApiClient {
  sendMessage(phoneNumberId: string, accessToken: string, body: Record<string, unknown>): Promise<SendResult>;
}
interface WorkerConfig {
  DATABASE_URL: string;
  UPSTREAM_BASE_URL: string;
  UPSTREAM_API_VERSION: string;
  UPSTREAM_TIMEOUT_MS: number;
  SEND_CONCURRENCY: number;
}

const { CloudApiClient } = require(join(MESSAGING_DIST, 'data-access/upstream/cloud-api.client.js')) as {
  CloudApiClient: new (baseUrl: string, version: string, timeoutMs: number) => CloudApiClient;
};
const { loadMessagingConfig } = require(join(MESSAGING_DIST, 'config.js')) as {
  loadMessagingConfig: (env: NodeJS.ProcessEnv) => WorkerConfig;
};
// The worker's own body builder and attempt naming (messaging's data-access and statuses), so the bodies match.
const { messageBody } = require(join(MESSAGING_DIST, 'data-access/upstream/message-body.js')) as {
  messageBody: (
    message: { toPhone: string; content: unknown },
    callbackData: string,
  ) => Record<string, unknown>;
};
const { callbackDataOf } = require(join(MESSAGING_DIST, 'domain/lifecycle/message-lifecycle.js')) as {
  callbackDataOf: (message: { id: number; sendAttempts: number }) => string;
};

async function main(): Promise<void> {
  const config = loadMessagingConfig(process.env);
  const accountId = process.env.CEILING_ACCOUNT_ID ?? '';
  const phoneNumberId = process.env.CEILING_PHONE_NUMBER_ID ?? '';
  const token = process.env.CEILING_ACCESS_TOKEN ?? '';
  const count = Number(process.env.CEILING_MESSAGES);
  const maxSeconds = Number(process.env.CEILING_MAX_SECONDS ?? 20);

  // The bodies the worker sent: built by its own function from the account's message logs, in order.
  const db = new Client({ connectionString: config.DATABASE_URL });
  await db.connect();
  let rows: Array<{ id: string; send_attempts: number; to_phone: string; content: unknown }>;
  try {
    rows = (
      await db.query<{ id: string; send_attempts: number; to_phone: string; content: unknown }>(
        `SELECT id, send_attempts, to_phone, content FROM messaging.message_logs
          WHERE channel_account_id = $1 ORDER BY id LIMIT $2`,
        [accountId, count],
      )
    ).rows;
  } finally {
    await db.end();
  }
  if (rows.length === 0) throw new Error(`no message logs of account ${accountId} to replay`);
  const bodies = rows.map((r) =>
    messageBody(
      { toPhone: r.to_phone, content: r.content },
      callbackDataOf({ id: Number(r.id), sendAttempts: r.send_attempts }),
    ),
  );

  const client = new CloudApiClient(
    config.UPSTREAM_BASE_URL,
    config.UPSTREAM_API_VERSION,
    config.UPSTREAM_TIMEOUT_MS,
  );
  const concurrency = config.SEND_CONCURRENCY;
  const run = async (total: number, deadline: number) => {
    let next = 0;
    let failures = 0;
    let last = Date.now();
    const loop = async () => {
      while (next < total && Date.now() < deadline) {
        const body = bodies[next % bodies.length];
        next += 1;
        const result = await client.sendMessage(phoneNumberId, token, body);
        if (!result.ok) failures += 1;
        last = Date.now();
      }
    };
    const started = Date.now();
    await Promise.all(Array.from({ length: concurrency }, loop));
    return { messages: next, failures, seconds: (last - started) / 1000 };
  };
  // Warm-up (JIT, sockets), not counted.
  await run(concurrency * 4, Date.now() + 5_000);
  const measured = await run(count, Date.now() + maxSeconds * 1000);
  // The keep-alive sockets would hold the process: it ends once the parent has the figures.
  process.send?.(
    { ...measured, perSecond: (measured.messages - measured.failures) / measured.seconds, concurrency },
    () => process.exit(0),
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`sandbox ceiling failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
