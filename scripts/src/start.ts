import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { AdminClient } from './admin-client';
import { startMailCatcher, type MailCatcher } from './mail-catcher';
import { ensureDatabase, migrateAll } from './migrate-all';
import { builtServices, ROOT, type ServiceSpec } from './services';

const GATEWAY = `http://127.0.0.1:${process.env.GATEWAY_PORT ?? 3000}`;
const DEMO_FILE = join(ROOT, '.local', 'demo.json');
// Fresh sandbox ids per seed: a database kept from an earlier checkout may already hold an older demo number.
const randomDigits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join('');
const demoAccount = () => ({
  phone_number_id: `1${randomDigits(14)}`,
  waba_id: `2${randomDigits(14)}`,
  display_phone_number: '15550001111',
  access_token: 'sandbox-access-token',
  tier: 'TIER_1K',
});

interface Demo {
  tenant_id: number;
  api_key: string;
  channel_account_id?: string;
  dashboard_email?: string;
  dashboard_password?: string;
}

/** A dashboard user of the demo tenant with a random password, made through an invite like any other. */
async function seedDashboardUser(admin: AdminClient, demo: Demo): Promise<void> {
  const email = `demo-${demo.tenant_id}@example.com`;
  const password = randomBytes(12).toString('base64url');
  const invite = await admin.inviteUser(demo.tenant_id, email);
  await admin.setPassword(invite.invite_url, password);
  demo.dashboard_email = email;
  demo.dashboard_password = password;
}

const children = new Map<string, ChildProcess>();
let stopping = false;
// Without SMTP_URL, mail goes to a catcher of our own that shows it on a page: the demo needs no mail provider.
let catcher: MailCatcher | undefined;

function run(service: ServiceSpec): void {
  const mail = service.sendsMail && catcher ? { SMTP_URL: catcher.smtpUrl } : {};
  const child = spawn(process.execPath, [join(ROOT, service.dir, 'dist', 'start.js')], {
    env: { ...process.env, ...mail, [service.portVar]: String(process.env[service.portVar] ?? service.port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.set(service.name, child);
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) =>
      process.stdout.write(`[${service.name}] ${line}\n`),
    );
  }
  child.on('exit', (code, signal) => {
    children.delete(service.name);
    if (!stopping) {
      process.stderr.write(`${service.name} exited (${signal ?? code}); stopping everything\n`);
      void stopAll(1);
    }
  });
}

async function waitReady(service: ServiceSpec, timeoutMs = 30_000): Promise<void> {
  const url = `http://127.0.0.1:${process.env[service.portVar] ?? service.port}${service.readyPath}`;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (stopping) return;
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${service.name} was not ready at ${url} within ${timeoutMs / 1000}s`);
}

async function stopAll(exitCode: number): Promise<void> {
  // A second signal (the terminal's Ctrl-C reaches this process and the front door that forwards it) changes nothing.
  if (stopping) return;
  stopping = true;
  const exits = [...children.values()].map(
    (child) =>
      new Promise<void>((resolve) => {
        const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        child.once('exit', () => {
          clearTimeout(killer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  );
  await Promise.all(exits);
  await catcher?.close();
  process.exit(exitCode);
}

async function keyWorks(apiKey: string): Promise<boolean> {
  const res = await fetch(`${GATEWAY}/api/v1/templates`, { headers: { authorization: `Bearer ${apiKey}` } });
  return res.status !== 401;
}

const adminClient = () => new AdminClient(GATEWAY, process.env.ADMIN_TOKEN ?? 'dev-admin-token-change-me');

/** On the first run (or when the saved key no longer works) creates the demo tenant, key and account. */
async function seed(withMessaging: boolean): Promise<Demo> {
  if (existsSync(DEMO_FILE)) {
    const saved = JSON.parse(readFileSync(DEMO_FILE, 'utf8')) as Demo;
    if ((await keyWorks(saved.api_key)) && (saved.channel_account_id !== undefined || !withMessaging)) {
      // A demo saved before the dashboard existed gets its user now.
      if (saved.dashboard_email === undefined) {
        await seedDashboardUser(adminClient(), saved);
        writeFileSync(DEMO_FILE, JSON.stringify(saved, null, 2), { mode: 0o600 });
      }
      return saved;
    }
  }
  const admin = adminClient();
  const tenant = await admin.createTenant('Demo tenant');
  const key = await admin.issueKey(tenant.tenant_id);
  const demo: Demo = { tenant_id: tenant.tenant_id, api_key: key.api_key };
  await seedDashboardUser(admin, demo);
  if (withMessaging) {
    demo.channel_account_id = (
      await admin.connectAccount(tenant.tenant_id, demoAccount())
    ).channel_account_id;
  }
  mkdirSync(join(ROOT, '.local'), { recursive: true });
  writeFileSync(DEMO_FILE, JSON.stringify(demo, null, 2), { mode: 0o600 });
  return demo;
}

function printWelcome(demo: Demo): void {
  const send = demo.channel_account_id
    ? `curl -s ${GATEWAY}/api/v1/messages/send -H "Authorization: Bearer ${demo.api_key}" \\
  -H "Content-Type: application/json" \\
  -d '{"channel_account_id":"${demo.channel_account_id}","phone":"+14155550123","message_type":"template","data":{"name":"hello_world"}}'`
    : `curl -s ${GATEWAY}/api/v1/templates -H "Authorization: Bearer ${demo.api_key}"`;
  process.stdout.write(`
Business messaging is running at ${GATEWAY}
  demo tenant: ${demo.tenant_id}
  API key:     ${demo.api_key}
${demo.channel_account_id ? `  channel account (sandbox): ${demo.channel_account_id}\n` : ''}
Dashboard: ${GATEWAY}/dashboard
  email:    ${demo.dashboard_email}
  password: ${demo.dashboard_password}

${catcher ? `Mail (invites, password resets) is caught, not delivered: read it at ${catcher.inboxUrl}\n\n` : ''}Try it:
  curl -s ${GATEWAY}/api/health
  ${send}

Ctrl-C stops everything.
`);
}

async function main(): Promise<void> {
  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
  const services = builtServices();
  await ensureDatabase();
  migrateAll();
  if (process.env.SMTP_URL === undefined) {
    catcher = await startMailCatcher(
      Number(process.env.MAIL_CATCHER_SMTP_PORT ?? 2525),
      Number(process.env.MAIL_CATCHER_HTTP_PORT ?? 2580),
    );
  }
  for (const service of services) {
    run(service);
    await waitReady(service);
  }
  const demo = await seed(services.some((s) => s.name === 'messaging'));
  printWelcome(demo);
}

main().catch((err: unknown) => {
  process.stderr.write(`start failed: ${err instanceof Error ? err.message : String(err)}\n`);
  void stopAll(1);
});
