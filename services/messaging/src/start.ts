import { handleShutdown, startHttpServer } from '@bm/platform';
import { loadMessagingConfig } from './config';
import { createMessagingService } from './messaging';

async function main(): Promise<void> {
  const config = loadMessagingConfig();
  const service = await createMessagingService(config);
  if (config.MESSAGING_ROLE !== 'api') await service.startWorkers();
  const server = await startHttpServer(service.app, config.MESSAGING_PORT);
  service.logger.info('messaging listening', { port: server.port, upstream: config.UPSTREAM_BASE_URL });
  handleShutdown(
    service.logger,
    [
      { name: 'http', close: () => server.close() },
      { name: 'messaging', close: () => service.close() },
    ],
    config.SHUTDOWN_TIMEOUT_MS,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`messaging failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
