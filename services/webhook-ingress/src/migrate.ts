import { createLogger, runMigrations } from '@bm/platform';
import { loadIngressConfig } from './config';
import { createIngressDataSource } from './data-access/data-source';

/** Applies webhook-ingress's pending migrations (run by `pnpm migrate` and the Kubernetes migration Job). */
async function main(): Promise<void> {
  const config = loadIngressConfig();
  const logger = createLogger('webhook-ingress-migrate', config.LOG_LEVEL);
  const dataSource = createIngressDataSource(config);
  try {
    await runMigrations(dataSource, logger);
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(
    `webhook-ingress migrations failed: ${err instanceof Error ? err.stack : String(err)}\n`,
  );
  process.exit(1);
});
