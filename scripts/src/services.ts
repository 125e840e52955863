import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

export interface ServiceSpec {
  name: string;
  dir: string;
  port: number;
  portVar: string;
  /** Path answered 200 once the service is ready. */
  readyPath: string;
  migrates: boolean;
  /** Mails invites and password resets: given SMTP_URL (the local mail catcher's, unless one is set). */
  sendsMail?: boolean;
}

/** Every process of the stack, in start order; a service not built yet (a later issue) is skipped. */
const ALL: ServiceSpec[] = [
  {
    name: 'upstream-sandbox',
    dir: 'services/upstream-sandbox',
    port: 4010,
    portVar: 'SANDBOX_PORT',
    readyPath: '/health',
    migrates: false,
  },
  {
    name: 'messaging',
    dir: 'services/messaging',
    port: 3001,
    portVar: 'MESSAGING_PORT',
    readyPath: '/health/ready',
    migrates: true,
  },
  {
    name: 'webhook-ingress',
    dir: 'services/webhook-ingress',
    port: 3002,
    portVar: 'INGRESS_PORT',
    readyPath: '/health/ready',
    migrates: true,
  },
  {
    name: 'campaign',
    dir: 'services/campaign',
    port: 3003,
    portVar: 'CAMPAIGN_PORT',
    readyPath: '/health/ready',
    migrates: true,
  },
  {
    name: 'webhook-dispatcher',
    dir: 'services/webhook-dispatcher',
    port: 3004,
    portVar: 'DISPATCHER_PORT',
    readyPath: '/health/ready',
    migrates: true,
  },
  {
    name: 'gateway',
    dir: 'services/gateway',
    port: 3000,
    portVar: 'GATEWAY_PORT',
    readyPath: '/health/ready',
    migrates: true,
    sendsMail: true,
  },
];

export function builtServices(): ServiceSpec[] {
  return ALL.filter((s) => existsSync(join(ROOT, s.dir, 'dist', 'start.js')));
}
