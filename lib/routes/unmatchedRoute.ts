// API Gateway's $default route: 404, or 405 with Allow; open to anyone: it tells no more than the
// published document.
import { type HttpDependencies, httpRoute } from '#lib/http/pipeline.ts';
import { REALM, ROUTES } from '#lib/routes/routeList.ts';

/** Each path template of the API, as a pattern, with the methods it has. */
const paths = [...Map.groupBy(Object.values(ROUTES), ({ path }) => path)].map(
  ([template, routes]) => ({
    pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
    allowed: routes.map(({ method }) => method).sort(),
    template,
  }),
);

/** What a 404 tells the caller the API has. */
const knownPaths = paths.map(({ template }) => template).join(' and ');

/** Longer than any path of the API: enough to recognise a caller's mistake or a scan. */
const MAX_SHOWN_PATH = 200;

/** The path as the 404 and the log line show it, cut short: a request line may run to 10 KB. */
const shown = (path: string) =>
  path.length > MAX_SHOWN_PATH ? `${path.slice(0, MAX_SHOWN_PATH)}…` : path;

export const unmatchedRouteHandler = (http: HttpDependencies) =>
  httpRoute(
    http,
    { name: '$default', access: 'anyone', realm: REALM },
    async ({ method, apiPath }) => {
      const known = paths.find(({ pattern }) => pattern.test(apiPath));
      // the request itself, which the line's route ($default, as API Gateway keys it) cannot name
      const log = { method, path: shown(apiPath) };
      if (!known) {
        return {
          status: 404,
          message: `There is no ${log.path}: the API has ${knownPaths}`,
          metric: 'RoutesNotFound',
          log,
        };
      }
      return {
        status: 405,
        message: `${method} is not allowed here: use ${known.allowed.join(', ')}`,
        headers: { Allow: known.allowed.join(', ') },
        metric: 'MethodsNotAllowed',
        log,
      };
    },
  );
