import { dirname } from 'node:path';
import express, { type RequestHandler, Router } from 'express';
import type { OpenApiDocument } from './build-document';

/** The files of swagger-ui-dist the page loads; the rest of the package (its demo page) stays unserved. */
const SWAGGER_UI_FILES = new Set(['/swagger-ui.css', '/index.css', '/swagger-ui-bundle.js', '/swagger-ui-standalone-preset.js', '/favicon-32x32.png']);

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Headless CMS API reference</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
  <link rel="stylesheet" href="/docs/index.css">
  <link rel="icon" type="image/png" href="/docs/favicon-32x32.png" sizes="32x32">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/swagger-ui-standalone-preset.js"></script>
  <script>
    window.ui = SwaggerUIBundle({
      url: '/openapi.json',
      dom_id: '#swagger-ui',
      deepLinking: true,
      presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
      plugins: [SwaggerUIBundle.plugins.DownloadUrl],
      layout: 'StandaloneLayout',
    });
  </script>
</body>
</html>
`;

function swaggerUiAssets(): RequestHandler {
  const files = express.static(dirname(require.resolve('swagger-ui-dist/package.json')), { index: false, fallthrough: true });
  return (req, res, next) => (SWAGGER_UI_FILES.has(req.path) ? files(req, res, next) : next());
}

/** GET /openapi.json (the document, serialised once) and GET /docs (Swagger UI from node_modules: works offline). */
export function referenceRouter(document: OpenApiDocument): Router {
  const json = JSON.stringify(document);
  const router = Router();
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(json);
  });
  router.get('/docs', (_req, res) => {
    res.type('html').send(PAGE);
  });
  router.use('/docs', swaggerUiAssets());
  return router;
}
