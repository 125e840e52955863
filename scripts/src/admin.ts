import { parseArgs } from 'node:util';
import { AdminClient } from './admin-client';

const USAGE = `pnpm admin <command> [options]     (GATEWAY_URL, ADMIN_TOKEN from the environment)

  tenant:create  --name <name> [--plan <plan>]
  tenant:plan    --tenant <id> --plan <plan>
  key:issue      --tenant <id>
  key:revoke     --key <key_id>
  user:invite    --tenant <id> --email <email>     (a dashboard user; prints a single-use link valid 24 h)
  account:connect --tenant <id> --phone-number-id <id> --waba-id <id> --display <number>
                  --token <access token> [--tier TIER_250]
  templates:sync --account <channel_account_id>
  dlq:list                                     every consumer queue and its parked (dead-lettered) messages
  dlq:show       --queue <queue> [--limit N]   the first N parked messages (default 10), left parked
  dlq:replay     --queue <queue> [--limit N]   back through the consumer (default: every parked message)
`;

async function main(argv: string[]): Promise<unknown> {
  const [command, ...rest] = argv;
  const { values: o } = parseArgs({
    args: rest,
    options: {
      name: { type: 'string' },
      plan: { type: 'string' },
      tenant: { type: 'string' },
      key: { type: 'string' },
      'phone-number-id': { type: 'string' },
      'waba-id': { type: 'string' },
      display: { type: 'string' },
      token: { type: 'string' },
      tier: { type: 'string' },
      account: { type: 'string' },
      queue: { type: 'string' },
      limit: { type: 'string' },
      email: { type: 'string' },
    },
  });
  const client = new AdminClient(
    process.env.GATEWAY_URL ?? 'http://127.0.0.1:3000',
    process.env.ADMIN_TOKEN ?? 'dev-admin-token-change-me',
  );
  const need = (name: keyof typeof o): string => {
    const value = o[name];
    if (value === undefined) throw new Error(`--${name} is required\n\n${USAGE}`);
    return value;
  };
  switch (command) {
    case 'tenant:create':
      return client.createTenant(need('name'), o.plan);
    case 'tenant:plan':
      return client.setPlan(Number(need('tenant')), need('plan'));
    case 'key:issue':
      return client.issueKey(Number(need('tenant')));
    case 'user:invite':
      return client.inviteUser(Number(need('tenant')), need('email'));
    case 'key:revoke':
      return client.revokeKey(need('key'));
    case 'account:connect':
      return client.connectAccount(Number(need('tenant')), {
        phone_number_id: need('phone-number-id'),
        waba_id: need('waba-id'),
        display_phone_number: need('display'),
        access_token: need('token'),
        tier: o.tier ?? 'TIER_250',
      });
    case 'templates:sync':
      return client.syncTemplates(need('account'));
    case 'dlq:list':
      return client.listDeadLetterQueues();
    case 'dlq:show':
      return client.showDeadLetters(need('queue'), o.limit);
    case 'dlq:replay':
      return client.replayDeadLetters(need('queue'), o.limit);
    default:
      throw new Error(USAGE);
  }
}

main(process.argv.slice(2))
  .then((result) => process.stdout.write(`${JSON.stringify(result, null, 2)}\n`))
  .catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
