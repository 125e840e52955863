import { createLogger, runMigrations } from '@bm/platform';
import { loadGatewayConfig } from './config';
import { createGatewayDataSource } from './data-access/data-source';

/** Applies the gateway's pending migrations (run by `pnpm migrate` and the Kubernetes migration Job). */
async function main(): Promise<void> {
  const config = loadGatewayConfig();
  const logger = createLogger('gateway-migrate', config.LOG_LEVEL);
  const dataSource = createGatewayDataSource(config);
  try {
    await runMigrations(dataSource, logger);
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`gateway migrations failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
