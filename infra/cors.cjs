// provider.httpApi.cors for serverless.yml: off unless the deployment names the browser origins
// that may call the API, as the param corsAllowedOrigins or CORS_ALLOWED_ORIGINS (space- or
// comma-separated, each an origin such as https://app.example.com). API Gateway then answers the
// preflight itself, allows the headers clients send and the methods of the route list
// (lib/routes/routeList.ts), and lets scripts read Link and ETag.
module.exports = async ({ resolveVariable }) => {
  const setting = await resolveVariable('param:corsAllowedOrigins, env:CORS_ALLOWED_ORIGINS, ""');
  const origins = String(setting ?? '')
    .split(/[\s,]+/)
    .filter(Boolean);
  if (origins.length === 0) return false;
  for (const origin of origins) {
    let url;
    try {
      url = new URL(origin);
    } catch {
      url = undefined;
    }
    // an origin is scheme://host[:port], nothing more: a path or a typo would never match
    if (!url || url.origin !== origin) {
      throw new Error(
        `CORS_ALLOWED_ORIGINS: "${origin}" is not an origin: write it as https://host[:port], without a path or a trailing slash`,
      );
    }
  }
  const { ROUTES } = await import('#lib/routes/routeList.ts');
  return {
    allowedOrigins: origins,
    allowedHeaders: ['Authorization', 'Content-Type', 'If-Match'],
    allowedMethods: [...new Set(Object.values(ROUTES).map((route) => route.method))],
    exposedResponseHeaders: ['Link', 'ETag'],
    // bearer tokens, never cookies
    allowCredentials: false,
    maxAge: 600,
  };
};
