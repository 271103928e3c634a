// provider.httpApi.cors for serverless.yml: off unless param corsAllowedOrigins or
// CORS_ALLOWED_ORIGINS names origins (space- or comma-separated); then API Gateway answers the
// preflight, for the route list's methods (lib/routes/routeList.ts), exposing Link and ETag.
module.exports = async ({ resolveVariable }) => {
  const setting = await resolveVariable('param:corsAllowedOrigins, env:CORS_ALLOWED_ORIGINS, ""');
  const origins = String(setting ?? '')
    .split(/[\s,]+/)
    .filter(Boolean);
  if (origins.length === 0) return false;
  // an origin is scheme://host[:port], nothing more: a path or a typo would never match
  const bad = origins.find((origin) => URL.parse(origin)?.origin !== origin);
  if (bad !== undefined)
    throw new Error(
      `CORS_ALLOWED_ORIGINS: "${bad}" is not an origin: write it as https://host[:port], without a path or a trailing slash`,
    );
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
