import { ok } from '@bm/contracts';
import {
  createHttpApp,
  createLogger,
  defineRoutes,
  requireInternalCaller,
  startHttpServer,
  tenantOf,
} from '@bm/platform';

// An internal service built like every real one (platform app factory, internal credential, tenant context),
// answering without I/O so the benchmark measures the gateway path itself.
const logger = createLogger('bench-echo', 'error');
const app = createHttpApp({
  logger,
  // As the real internal services behind the gateway: it sets the security headers on every public answer.
  securityHeaders: false,
  routes: (a) => {
    a.use(requireInternalCaller(process.env.INTERNAL_TOKEN ?? 'dev-internal-token-change-me'));
    defineRoutes(a.router, [
      {
        method: 'GET',
        path: '/api/v1/templates',
        handlers: [(_req, res) => res.json(ok({ templates: [], tenant_id: tenantOf(res) }))],
      },
    ]);
  },
});
void startHttpServer(app, Number(process.env.PORT ?? 0), '127.0.0.1').then((server) => {
  process.send?.({ port: server.port });
  process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
});
