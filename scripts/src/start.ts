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
const SANDBOX = `http://127.0.0.1:${process.env.SANDBOX_PORT ?? 4010}`;
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

const DEMO_CUSTOMER = { from: '14155550199', name: 'Ana Lima', text: 'Hi! Where is my order #A-1042?' };

/** The demo number's phone number id, as the API shows it. */
async function phoneNumberIdOf(demo: Demo): Promise<string | undefined> {
  const res = await fetch(`${GATEWAY}/api/v1/channel-accounts`, {
    headers: { Authorization: `Bearer ${demo.api_key}` },
  });
  const body = (await res.json()) as {
    data?: { channel_accounts?: Array<{ channel_account_id: string; phone_number_id: string }> };
  };
  return body.data?.channel_accounts?.find((a) => a.channel_account_id === demo.channel_account_id)
    ?.phone_number_id;
}

/**
 * An empty inbox gets its first conversation: a sandbox customer writes to the demo number (a signed webhook, as
 * the upstream sends), so the Inbox has someone to answer a minute after starting. Answers the phone number id.
 */
async function greetInbox(demo: Demo): Promise<string | undefined> {
  if (!demo.channel_account_id) return undefined;
  const phoneNumberId = await phoneNumberIdOf(demo);
  if (!phoneNumberId) return undefined;
  const listed = await fetch(`${GATEWAY}/api/v1/conversations?per_page=1`, {
    headers: { Authorization: `Bearer ${demo.api_key}` },
  });
  const total = ((await listed.json()) as { data?: { pagination?: { total?: number } } }).data?.pagination
    ?.total;
  if (total === 0) {
    await fetch(`${SANDBOX}/_sandbox/inbound`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ phone_number_id: phoneNumberId, ...DEMO_CUSTOMER }),
    });
  }
  return phoneNumberId;
}

function printWelcome(demo: Demo, phoneNumberId: string | undefined): void {
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
${
  phoneNumberId
    ? `
A customer writes to the demo number (then see the dashboard's Inbox):
  curl -s ${SANDBOX}/_sandbox/inbound -H "Content-Type: application/json" \\
  -d '{"phone_number_id":"${phoneNumberId}","from":"14155550123","name":"Bruno Costa","text":"Can I change my delivery address?"}'
`
    : ''
}
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
  const phoneNumberId = await greetInbox(demo).catch((err: unknown) => {
    process.stderr.write(`the demo customer did not write in: ${(err as Error).message}\n`);
    return undefined;
  });
  printWelcome(demo, phoneNumberId);
}

main().catch((err: unknown) => {
  process.stderr.write(`start failed: ${err instanceof Error ? err.message : String(err)}\n`);
  void stopAll(1);
});
