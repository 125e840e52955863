import type { Server } from 'node:http';
import type { Express } from 'express';

/**
 * Listens on a free loopback port and reports it to the parent over IPC (as forkServer expects); SIGTERM closes the
 * server, then `release` (pools, connections), then ends the process.
 */
export function serveForked(app: Express, release: () => Promise<unknown>): Server {
  const server = app.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.send?.({ port: typeof address === 'object' && address ? address.port : 0 });
  });
  process.on('SIGTERM', () => {
    server.close();
    void release().then(() => process.exit(0));
  });
  return server;
}
