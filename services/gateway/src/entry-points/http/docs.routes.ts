import { dirname } from 'node:path';
import express, { Router } from 'express';
import { buildOpenApiDocument } from '@bm/contracts';
import { defineRoutes } from '@bm/platform';

/** Where swagger-ui-dist keeps its static files; resolved through its package.json, never loading the bundle. */
const SWAGGER_UI_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));

// The page runs no inline script, so helmet's `script-src 'self'` holds: the initializer is its own file.
const INITIALIZER = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/api/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'StandaloneLayout',
  });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Business Messaging API</title>
    <link rel="stylesheet" href="/api/docs/assets/swagger-ui.css" />
    <link rel="icon" type="image/png" href="/api/docs/assets/favicon-32x32.png" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/api/docs/assets/swagger-ui-bundle.js"></script>
    <script src="/api/docs/assets/swagger-ui-standalone-preset.js"></script>
    <script src="/api/docs/initializer.js"></script>
  </body>
</html>
`;

/**
 * GET /api/openapi.json (the document itself, not the envelope: the one place clients and tools expect a raw
 * document) and GET /api/docs, Swagger UI served from the installed package, no CDN. No authentication.
 */
export function docsRouter(): Router {
  const document = buildOpenApiDocument();
  const router = Router();
  defineRoutes(router, [
    { method: 'GET', path: '/api/openapi.json', handlers: [(_req, res) => void res.json(document)] },
    { method: 'GET', path: '/api/docs', handlers: [(_req, res) => void res.type('html').send(PAGE)] },
    {
      method: 'GET',
      path: '/api/docs/initializer.js',
      handlers: [(_req, res) => void res.type('application/javascript').send(INITIALIZER)],
    },
  ]);
  router.use(
    '/api/docs/assets',
    express.static(SWAGGER_UI_DIR, { index: false, fallthrough: true, maxAge: '1h' }),
  );
  return router;
}
