import { handleShutdown, startHttpServer } from '@bm/platform';
import { loadGatewayConfig } from './config';
import { createGateway } from './gateway';

async function main(): Promise<void> {
  const config = loadGatewayConfig();
  const gateway = await createGateway(config);
  const server = await startHttpServer(gateway.app, config.GATEWAY_PORT);
  gateway.logger.info('gateway listening', { port: server.port });
  handleShutdown(
    gateway.logger,
    [
      { name: 'http', close: () => server.close() },
      { name: 'gateway', close: () => gateway.close() },
    ],
    config.SHUTDOWN_TIMEOUT_MS,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`gateway failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
