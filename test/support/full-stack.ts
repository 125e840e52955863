import { startHttpServer, type RunningServer } from '@bm/platform';
import { testEnv } from '@bm/platform/testing';
import { loadGatewayConfig } from '../../services/gateway/src/config';
import { createGateway, type Gateway } from '../../services/gateway/src/gateway';
import {
  startDispatcher,
  type TestDispatcher,
} from '../../services/webhook-dispatcher/test/factories/dispatcher';
import { startIngress, type IngressFixture } from './ingress';
import { checkAnswersAgainstOpenApi } from './openapi-check';
import { registerSecret } from './secrets';
import { ADMIN_TOKEN, startStack, type Stack } from './stack';

export interface FullStack {
  stack: Stack;
  ingress: IngressFixture;
  dispatcher: TestDispatcher;
  /** A gateway that knows every internal service: messaging, campaign, dispatcher and webhook-ingress. */
  gatewayUrl: string;
  gateway: Gateway;
  stop(): Promise<void>;
}

/**
 * Every service in this process: the e2e stack with the campaign service, webhook-ingress, the dispatcher, and a
 * gateway that forwards to all of them, so each public route reaches the service that owns it.
 */
export async function startFullStack(gatewayEnv: Record<string, string> = {}): Promise<FullStack> {
  const stack = await startStack({ campaignEnv: {} });
  const ingress = await startIngress(stack);
  const dispatcher = await startDispatcher();
  registerSecret('encryption key of webhook-dispatcher', dispatcher.service.deps.config.ENCRYPTION_KEY);
  registerSecret('internal token', dispatcher.service.deps.config.INTERNAL_TOKEN);
  const gateway = await createGateway(
    loadGatewayConfig(
      testEnv({
        ADMIN_TOKEN,
        MESSAGING_URL: stack.messagingUrl,
        CAMPAIGN_URL: stack.campaignUrl!,
        DISPATCHER_URL: dispatcher.url,
        INGRESS_URL: ingress.url,
        DEFAULT_PLAN: 'unlimited',
        ...gatewayEnv,
      }),
    ),
  );
  await gateway.startWorkers();
  const server: RunningServer = await startHttpServer(gateway.app, 0, '127.0.0.1');
  checkAnswersAgainstOpenApi(server);
  return {
    stack,
    ingress,
    dispatcher,
    gatewayUrl: server.url,
    gateway,
    stop: async () => {
      await gateway.inboxHub.close();
      await server.close();
      await gateway.close();
      await dispatcher.stop();
      await ingress.stop();
      await stack.stop();
    },
  };
}
