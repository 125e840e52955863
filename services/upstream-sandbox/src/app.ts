import express, { type Express, type Router } from 'express';
import { createLogger, type Logger } from '@bm/platform';
import type { SandboxConfig } from './config';
import { businessesRoutes } from './control/businesses.routes';
import { customersRoutes } from './control/customers.routes';
import { inboundRoutes } from './control/inbound.routes';
import { numbersRoutes } from './control/numbers.routes';
import { recordsRoutes } from './control/records.routes';
import { templatesControlRoutes } from './control/templates-control.routes';
import type { SandboxDeps } from './deps';
import { graphErrorHandler, unsupportedRequest } from './error-handler';
import { faultsRoutes } from './faults/faults.routes';
import { phoneNumberRoutes } from './numbers/phone-number.routes';
import {
  mediaControlRoutes,
  mediaDownloadRoutes,
  mediaLookupRoutes,
  MEDIA_DOWNLOAD_PATH,
} from './media/media.routes';
import { messagesRoutes } from './sends/messages.routes';
import { createState, type SandboxState } from './state';
import { subscriptionsRoutes } from './subscriptions/subscriptions.routes';
import { templatesRoutes } from './templates/templates.routes';
import { Timers } from './webhooks-out/timers';
import { WebhookSender } from './webhooks-out/webhook-sender';

export interface SandboxApp {
  app: Express;
  state: SandboxState;
  /** Cancels pending status reports and webhook retries; the HTTP server is closed by whoever started it. */
  close(): Promise<void>;
}

const VERSION = /^v\d+\.\d+$/;

/** The upstream's own paths, under any `/vNN.N/` version segment. */
function graphRouter(deps: SandboxDeps): Router {
  const router = express.Router({ mergeParams: true });
  router.use((req, _res, next) => {
    // Leave this router for anything not under a version segment; the 404 answers it.
    next(VERSION.test((req.params as Record<string, string>).version) ? undefined : 'router');
  });
  messagesRoutes(router, deps);
  templatesRoutes(router, deps);
  subscriptionsRoutes(router, deps);
  // Before the phone number's profile: both are `GET /{id}`.
  mediaLookupRoutes(router, deps);
  phoneNumberRoutes(router, deps);
  return router;
}

/** The `/_sandbox` control endpoints tests use to shape and inspect the sandbox. */
function controlRouter(deps: SandboxDeps): Router {
  const router = express.Router();
  faultsRoutes(router, deps);
  numbersRoutes(router, deps);
  templatesControlRoutes(router, deps);
  inboundRoutes(router, deps);
  customersRoutes(router, deps);
  businessesRoutes(router, deps);
  recordsRoutes(router, deps);
  mediaControlRoutes(router, deps);
  return router;
}

/** Builds the sandbox without listening, so tests can start it on port 0. */
export function createSandboxApp(config: Readonly<SandboxConfig>, logger?: Logger): SandboxApp {
  const log = logger ?? createLogger('upstream-sandbox', config.LOG_LEVEL);
  const state = createState(config);
  const timers = new Timers();
  const webhooks = new WebhookSender({
    state,
    timers,
    logger: log,
    maxAttempts: config.SANDBOX_WEBHOOK_MAX_ATTEMPTS,
    retryBaseMs: config.SANDBOX_WEBHOOK_RETRY_BASE_MS,
    retryMaxMs: config.SANDBOX_WEBHOOK_RETRY_MAX_MS,
  });
  const deps: SandboxDeps = { config, state, timers, webhooks, logger: log };

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(express.json({ limit: '5mb', type: ['application/json', 'application/*+json'] }));
  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.use('/_sandbox', controlRouter(deps));
  const media = express.Router();
  mediaDownloadRoutes(media, deps);
  app.use(MEDIA_DOWNLOAD_PATH, media);
  app.use('/:version', graphRouter(deps));
  app.use(unsupportedRequest);
  app.use(graphErrorHandler(log));

  return {
    app,
    state,
    close: () => {
      timers.stop();
      return Promise.resolve();
    },
  };
}
