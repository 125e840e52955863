import type { Logger } from '@bm/platform';
import type { SandboxConfig } from './config';
import type { SandboxState } from './state';
import type { Timers } from './webhooks-out/timers';
import type { WebhookSender } from './webhooks-out/webhook-sender';

/** What the routes and use cases of one sandbox share. */
export interface SandboxDeps {
  config: Readonly<SandboxConfig>;
  state: SandboxState;
  timers: Timers;
  webhooks: WebhookSender;
  logger: Logger;
}
