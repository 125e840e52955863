import { createLogger, handleShutdown, startHttpServer } from '@bm/platform';
import { createSandboxApp } from './app';
import { loadSandboxConfig } from './config';
import { NUMBER_PATTERNS } from './faults/number-patterns';

async function main(): Promise<void> {
  const config = loadSandboxConfig();
  const logger = createLogger('upstream-sandbox', config.LOG_LEVEL);
  const sandbox = createSandboxApp(config, logger);
  const server = await startHttpServer(sandbox.app, config.SANDBOX_PORT);
  logger.info('upstream sandbox listening', {
    port: server.port,
    webhook_url: config.SANDBOX_WEBHOOK_URL,
    status_delays_ms: config.SANDBOX_STATUS_DELAYS_MS,
    default_mps: config.SANDBOX_DEFAULT_MPS,
    fault_patterns: config.SANDBOX_FAULT_PATTERNS
      ? NUMBER_PATTERNS.map((p) => `*${p.suffix}=${p.error_code}`)
      : [],
  });
  handleShutdown(
    logger,
    [
      { name: 'http', close: () => server.close() },
      { name: 'webhooks', close: () => sandbox.close() },
    ],
    config.SHUTDOWN_TIMEOUT_MS,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
