import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { INTERNAL_HEADERS } from '@bm/contracts';
import { freePort, testEnv, waitFor } from '@bm/platform/testing';
import { phones } from '../support/campaigns';
import { sandboxSends } from '../support/messages';
import { createTenant, startStack, type Stack } from '../support/stack';

// A messaging process (the built service) takes sends while it is told to stop with SIGTERM; another replica
// (in this process) keeps running, as another pod would. Whatever the stopping process accepted must go out
// exactly once; whatever it refused was never accepted.
let stack: Stack;
let child: ChildProcess | undefined;

beforeAll(async () => {
  stack = await startStack();
}, 60_000);

afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await stack?.stop();
});


it('a SIGTERM during a stream of sends loses and doubles nothing', async () => {
  const t = await createTenant(stack, 'TIER_10K');
  const port = await freePort();
  child = spawn(process.execPath, [path.join(__dirname, '../../services/messaging/dist/start.js')], {
    env: {
      ...process.env,
      ...testEnv({
        UPSTREAM_BASE_URL: stack.sandboxUrl,
        MESSAGING_PORT: String(port),
        SHUTDOWN_TIMEOUT_MS: '5000',
        LOG_LEVEL: 'warn',
      }),
    },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let log = '';
  child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${url}/health/ready`).catch(() => undefined))?.ok, {
    timeoutMs: 20_000,
  });

  const targets = phones(400);
  const accepted: Array<{ id: number; phone: string }> = [];
  const refused: number[] = [];
  let next = 0;
  let stopping = false;
  const sender = async () => {
    while (next < targets.length) {
      const phone = targets[next++];
      try {
        const res = await fetch(`${url}/api/v1/messages/send`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            [INTERNAL_HEADERS.token]: testEnv().INTERNAL_TOKEN!,
            [INTERNAL_HEADERS.tenantId]: String(t.tenantId),
          },
          body: JSON.stringify({
            channel_account_id: t.channelAccountId,
            phone,
            message_type: 'template',
            data: { name: 'hello_world' },
          }),
        });
        const body = (await res.json()) as { data?: { message_log_id: number } };
        if (res.status === 202) accepted.push({ id: body.data!.message_log_id, phone });
        else refused.push(res.status);
      } catch {
        refused.push(0); // connection refused or reset: nothing was accepted
      }
      if (accepted.length === 80 && !stopping) {
        stopping = true;
        child!.kill('SIGTERM');
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, sender));
  const exitCode = await new Promise<number | null>((resolve) =>
    child!.exitCode !== null ? resolve(child!.exitCode) : child!.once('exit', (code) => resolve(code)),
  );
  expect(exitCode).toBe(0);
  // Every shutdown step ended within its bound: the HTTP step with the last answer, not at its timeout.
  expect(log).not.toContain('close failed');
  expect(accepted.length).toBeGreaterThanOrEqual(80);
  // Refusals are 503 (the dependency-down envelope) or no connection at all, never a 5xx that accepted work.
  expect(refused.every((status) => status === 0 || status === 503)).toBe(true);

  // The replica still running delivers whatever the stopped one left queued.
  await waitFor(
    async () => {
      const rows: Array<{ n: string }> = await stack.messaging[0].deps.dataSource.query(
        `SELECT count(*) AS n FROM messaging.message_logs WHERE id = ANY($1::bigint[]) AND status = 'sent'`,
        [accepted.map((a) => a.id)],
      );
      return Number(rows[0].n) === accepted.length || undefined;
    },
    { timeoutMs: 30_000, what: 'every accepted message sent' },
  );
  for (const { phone } of accepted) {
    expect((await sandboxSends(stack, `to=${phone}`)).map((s) => s.result)).toEqual(['accepted']);
  }
}, 90_000);
