import { handleShutdown, startHttpServer } from '@bm/platform';
import { loadCampaignConfig } from './config';
import { createCampaignService } from './campaign';

async function main(): Promise<void> {
  const config = loadCampaignConfig();
  const service = await createCampaignService(config);
  if (config.CAMPAIGN_ROLE !== 'api') await service.startWorkers();
  const server = await startHttpServer(service.app, config.CAMPAIGN_PORT);
  service.logger.info('campaign listening', { port: server.port, role: config.CAMPAIGN_ROLE });
  handleShutdown(
    service.logger,
    [
      { name: 'http', close: () => server.close() },
      { name: 'campaign', close: () => service.close() },
    ],
    config.SHUTDOWN_TIMEOUT_MS,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`campaign failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
