// The interactive API reference of openapi.yaml (Swagger UI), one page that loads the library
// from beside itself, never from a CDN: npm start serves it at /docs, npm run docs writes it out.
import { join } from 'node:path';
import { repoRoot, yamlOf } from '../local/paths.ts';
import { OPENAPI_FILE } from '../openapi/document.ts';

const swaggerUi = join(repoRoot, 'node_modules', 'swagger-ui-dist');

/** The files the page loads, by the name it loads them under, with where they are. */
export const referenceAssets = Object.fromEntries(
  Object.entries({ 'swagger-ui.css': 'text/css', 'swagger-ui-bundle.js': 'text/javascript' }).map(
    ([name, type]) => [name, { file: join(swaggerUi, name), type }],
  ),
);

export interface ReferenceOptions {
  /** Where "Try it" sends requests; without it, the document's own servers. */
  serverUrl?: string | undefined;
  /** The local run's token, entered under Authorize and shown on the page. */
  localToken?: string | undefined;
}

// inside <script>, "</script>" in a description would end the element early
const scriptJson = (value: unknown) => JSON.stringify(value).replaceAll('<', '\\u003c');

export const referencePage = ({ serverUrl, localToken }: ReferenceOptions = {}) => {
  const spec = yamlOf(OPENAPI_FILE);
  if (serverUrl) spec.servers = [{ url: serverUrl }];
  const tokenNote = localToken
    ? `<p id="local-token">Local token (caller <b>local-user</b>, valid for an hour; reload the page
  for a new one), already entered under <b>Authorize</b>: <code>${localToken}</code></p>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${spec.info.title}</title>
<link rel="stylesheet" href="swagger-ui.css">
<style>#local-token { font: 14px sans-serif; max-width: 1420px; margin: 16px auto; padding: 0 20px; word-break: break-all; }</style>
</head>
<body>
${tokenNote}
<div id="reference"></div>
<script src="swagger-ui-bundle.js"></script>
<script>
const settings = ${scriptJson({ spec, localToken })};
const ui = SwaggerUIBundle({
  spec: settings.spec,
  dom_id: '#reference',
  // no badge from validator.swagger.io: the page works offline
  validatorUrl: null,
  tryItOutEnabled: true,
  onComplete: () => {
    if (!settings.localToken) return;
    for (const scheme of Object.keys(settings.spec.components.securitySchemes)) {
      ui.preauthorizeApiKey(scheme, settings.localToken);
    }
  },
});
</script>
</body>
</html>
`;
};
