import { startHttpServer, type RunningServer } from '@bm/platform';
import { testEnv } from '@bm/platform/testing';
import { loadGatewayConfig } from '../../services/gateway/src/config';
import { createGateway, type Gateway } from '../../services/gateway/src/gateway';
import {
  startDispatcher,
  type TestDispatcher,
} from '../../services/webhook-dispatcher/test/factories/dispatcher';
import { checkAnswersAgainstOpenApi, checkWebhookDeliveriesAgainstOpenApi } from './openapi-check';
import { registerSecret } from './secrets';
import { ADMIN_TOKEN, startStack, type Stack, type StackOptions } from './stack';

export interface DispatcherStack {
  stack: Stack;
  dispatcher: TestDispatcher;
  /** A gateway that forwards /api/v1/webhooks/* to this dispatcher (and the rest to the stack's messaging). */
  gatewayUrl: string;
  gateway: Gateway;
  stop(): Promise<void>;
}

/**
 * The e2e stack plus the webhook dispatcher (its migrations run on start) and a second gateway that knows the
 * dispatcher's URL: the stack's own gateway reads DISPATCHER_URL when it is created, before the dispatcher exists.
 * Tenants made through the stack's gateway work through this one too (same database).
 */
export async function startDispatcherStack(options: StackOptions = {}): Promise<DispatcherStack> {
  // Every webhook a local receiver gets from here on is held to the document's `webhooks` section.
  checkWebhookDeliveriesAgainstOpenApi();
  const stack = await startStack(options);
  const dispatcher = await startDispatcher();
  registerSecret('encryption key of webhook-dispatcher', dispatcher.service.deps.config.ENCRYPTION_KEY);
  registerSecret('internal token', dispatcher.service.deps.config.INTERNAL_TOKEN);
  const gateway = await createGateway(
    loadGatewayConfig(
      testEnv({
        ADMIN_TOKEN,
        MESSAGING_URL: stack.messagingUrl,
        DISPATCHER_URL: dispatcher.url,
        DEFAULT_PLAN: 'unlimited',
      }),
    ),
  );
  const server: RunningServer = await startHttpServer(gateway.app, 0, '127.0.0.1');
  checkAnswersAgainstOpenApi(server);
  return {
    stack,
    dispatcher,
    gatewayUrl: server.url,
    gateway,
    stop: async () => {
      await server.close();
      await gateway.close();
      await dispatcher.stop();
      await stack.stop();
    },
  };
}
