import { handleShutdown, startHttpServer } from '@bm/platform';
import { loadIngressConfig } from './config';
import { createIngressService } from './ingress';

async function main(): Promise<void> {
  const config = loadIngressConfig();
  const service = await createIngressService(config);
  await service.startWorkers();
  const server = await startHttpServer(service.app, config.INGRESS_PORT);
  service.logger.info('webhook-ingress listening', { port: server.port, messaging: config.MESSAGING_URL });
  handleShutdown(
    service.logger,
    [
      { name: 'http', close: () => server.close() },
      { name: 'webhook-ingress', close: () => service.close() },
    ],
    config.SHUTDOWN_TIMEOUT_MS,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(
    `webhook-ingress failed to start: ${err instanceof Error ? err.stack : String(err)}\n`,
  );
  process.exit(1);
});
