import { createLogger, runMigrations } from '@bm/platform';
import { loadMessagingConfig } from './config';
import { createMessagingDataSource } from './data-access/data-source';

/** Applies the gateway's pending migrations (run by `pnpm migrate` and the Kubernetes migration Job). */
async function main(): Promise<void> {
  const config = loadMessagingConfig();
  const logger = createLogger('messaging-migrate', config.LOG_LEVEL);
  const dataSource = createMessagingDataSource(config);
  try {
    await runMigrations(dataSource, logger);
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`messaging migrations failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
