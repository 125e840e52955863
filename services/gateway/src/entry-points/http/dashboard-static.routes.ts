import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { notFound, type Logger } from '@bm/platform';

// Same origin as the API and nothing else: no inline script or style, no framing, no plugin, no base change.
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

// dist/entry-points/http -> services/dashboard/dist in the repository and in the image.
const DEFAULT_DIR = resolve(__dirname, '../../../../dashboard/dist');

function strictCsp(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Content-Security-Policy', CSP);
  next();
}

/**
 * GET /dashboard/**: the dashboard's static build. Hashed assets are cached for good; any other path is a
 * screen of the single-page app and gets index.html (never cached, so a deploy shows at the next load).
 */
export function dashboardStaticRouter(dir: string | undefined, logger: Logger): Router {
  const root = dir ?? DEFAULT_DIR;
  const router = Router();
  const index = join(root, 'index.html');
  if (!existsSync(index)) {
    logger.warn('dashboard build not found; /dashboard answers 404 until it is built', { dir: root });
    return router;
  }
  router.use('/dashboard', strictCsp);
  router.use(
    '/dashboard/assets',
    express.static(join(root, 'assets'), { index: false, immutable: true, maxAge: '365d' }),
    notFound,
  );
  router.get(['/dashboard', '/dashboard/{*screen}'], (_req, res) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
  return router;
}
