import { handleShutdown, startHttpServer } from '@bm/platform';
import { loadDispatcherConfig } from './config';
import { createDispatcherService } from './dispatcher';

async function main(): Promise<void> {
  const config = loadDispatcherConfig();
  const service = await createDispatcherService(config);
  if (config.DISPATCHER_ROLE !== 'api') await service.startWorkers();
  const server = await startHttpServer(service.app, config.DISPATCHER_PORT);
  service.logger.info('webhook-dispatcher listening', {
    port: server.port,
    allow_http: config.DISPATCHER_ALLOW_HTTP,
    allowed_hosts: config.DISPATCHER_ALLOWED_HOSTS,
  });
  handleShutdown(
    service.logger,
    [
      { name: 'http', close: () => server.close() },
      { name: 'webhook-dispatcher', close: () => service.close() },
    ],
    config.SHUTDOWN_TIMEOUT_MS,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(
    `webhook-dispatcher failed to start: ${err instanceof Error ? err.stack : String(err)}\n`,
  );
  process.exit(1);
});
