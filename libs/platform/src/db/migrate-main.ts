import type { DataSource } from 'typeorm';
import { createLogger } from '../logger';
import { runMigrations } from './data-source';

/**
 * The body of every service's `migrate.js` (run by `pnpm migrate`, the compose `migrate` service and the
 * Kubernetes migration Job): applies the pending migrations, closes, and exits non-zero on failure.
 */
export function migrateMain(service: string, logLevel: string, makeDataSource: () => DataSource): void {
  const logger = createLogger(`${service}-migrate`, logLevel);
  const dataSource = makeDataSource();
  runMigrations(dataSource, logger)
    .finally(() => (dataSource.isInitialized ? dataSource.destroy() : undefined))
    .catch((err: unknown) => {
      process.stderr.write(
        `${service} migrations failed: ${err instanceof Error ? err.stack : String(err)}\n`,
      );
      process.exit(1);
    });
}
