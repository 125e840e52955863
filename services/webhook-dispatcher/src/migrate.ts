import { createLogger, runMigrations } from '@bm/platform';
import { loadDispatcherConfig } from './config';
import { createDispatcherDataSource } from './data-access/data-source';

/** Applies the dispatcher's pending migrations (run by `pnpm migrate` and the Kubernetes migration Job). */
async function main(): Promise<void> {
  const config = loadDispatcherConfig();
  const logger = createLogger('webhook-dispatcher-migrate', config.LOG_LEVEL);
  const dataSource = createDispatcherDataSource(config);
  try {
    await runMigrations(dataSource, logger);
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(
    `webhook-dispatcher migrations failed: ${err instanceof Error ? err.stack : String(err)}\n`,
  );
  process.exit(1);
});
