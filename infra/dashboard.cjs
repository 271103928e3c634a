// The stage's CloudWatch dashboard, unless its param says none (docs/operations.md), each list
// from where it is declared: the route list, the YAML files' functions and alarms, CUSTOM_METRICS.
const operatorWebhook = require('./operatorWebhook.cjs');

// the outcomes of an attempt, each a field of its log line (lib/telemetry.ts, METRIC_NAMES)
const ENDPOINT_OUTCOMES = [
  'EndpointEventsDelivered',
  'EndpointAttemptsFailed',
  'EndpointEventsExhausted',
  'EndpointEventsDropped',
];
const OPERATOR_OUTCOMES = ['WebhooksDelivered', 'WebhookAttemptsFailed', 'WebhooksDeadLettered'];

/** What Fn::Sub fills in the body: a LogicalId's Ref, a LogicalId.Attribute's GetAtt. */
const sub = (name) => `\${${name}}`;
/** Logs Insights' sources: each function's log group, as serverless names it (CreatePlantLogGroup). */
const sources = (names) =>
  names.map((name) => `SOURCE '${sub(`${name[0].toUpperCase()}${name.slice(1)}LogGroup`)}'`);

module.exports = async ({ resolveVariable }) => {
  // a stage given dashboard 'false' (dev's default) deploys none (docs/operations.md)
  if (String(await resolveVariable('param:dashboard')) === 'false') return { Resources: {} };
  const { ROUTES } = await import('#lib/routes/routeList.ts');
  const { CUSTOM_METRICS } = await import('#lib/telemetry.ts');
  const { SERVICE_NAME } = await import('#lib/config/telemetry.ts');
  const { declaredFunctions, yamlOf } = await import('./local/paths.ts');
  // the stack's name as osls gives it (serverless.yml sets no other), and the dashboard's
  const stack = `${await resolveVariable('self:service')}-${await resolveVariable('sls:stage')}`;
  const METRICS_NAMESPACE = await resolveVariable('self:custom.environment.METRICS_NAMESPACE');
  // the operator's webhook's functions and resources: none in a stage without its receiver
  const operatorFunctions = Object.keys(await operatorWebhook.functions({ resolveVariable }));
  const operator = await operatorWebhook.resources({ resolveVariable });
  const alarms = Object.entries({
    ...yamlOf('infra', 'alarms.yml').Resources,
    ...yamlOf('infra', 'webhooks.yml').Resources,
    ...operator.Resources,
  })
    .filter(([, { Type }]) => Type === 'AWS::CloudWatch::Alarm')
    .map(([id]) => sub(`${id}.Arn`));
  // every route's function, then the HTTP API's others (our 404 and 405)
  const httpFunctions = Object.entries({ ...ROUTES, ...declaredFunctions() })
    .filter(([name, f]) => name in ROUTES || f.events?.some((event) => 'httpApi' in event))
    .map(([name]) => name);
  const outcomes = [...ENDPOINT_OUTCOMES, ...(operatorFunctions.length ? OPERATOR_OUTCOMES : [])];

  const region = sub('AWS::Region');
  // no height: CloudWatch's, 6; no x and y: CloudWatch places them in order
  const widget = (type, width, props) => ({ type, width, properties: { region, ...props } });
  // every queue (named by CloudFormation) and function (by osls) holds the stack's name: search it
  const search = (title, schema, metric) => {
    const expression = `SEARCH('{${schema}} MetricName="${metric}" ${stack}', 'Maximum')`;
    return widget('metric', 8, { title, metrics: [[{ id: 'found', expression }]] });
  };
  const api = ['ApiId', sub('HttpApi'), 'Stage', '$default'];
  const widgets = [
    { type: 'alarm', width: 24, height: 3, properties: { title: 'Alarms', alarms } },
    widget('metric', 12, {
      title: 'API Gateway: requests, 4xx and 5xx; p99 latency (ms, right)',
      stat: 'Sum',
      metrics: [
        ...['Count', '4xx', '5xx'].map((name) => ['AWS/ApiGateway', name, ...api]),
        ['AWS/ApiGateway', 'Latency', ...api, { stat: 'p99', yAxis: 'right' }],
      ],
    }),
    widget('metric', 12, {
      title: `Custom metrics (${METRICS_NAMESPACE})`,
      stat: 'Sum',
      metrics: CUSTOM_METRICS.map((name) => [METRICS_NAMESPACE, name, 'service', SERVICE_NAME]),
    }),
    // a query of the request lines: three metrics a route would pass a free dashboard's 50
    widget('log', 24, {
      title: 'Each route: its answers by status, and their p99 latency (ms)',
      query: [
        ...sources(httpFunctions),
        'filter ispresent(route) and ispresent(status)',
        'stats count(*) as answers, pct(latencyMs, 99) as p99 by route, status',
        'sort route asc, status asc',
      ].join(' | '),
    }),
    widget('log', 8, {
      title: 'Deliveries by outcome, each 5 minutes',
      view: 'timeSeries',
      query: [
        ...sources(['deliverToEndpoint', ...operatorFunctions]),
        `stats ${outcomes.map((name) => `sum(${name})`).join(', ')} by bin(5m)`,
      ].join(' | '),
    }),
    search('Queues: oldest message (s)', 'AWS/SQS,QueueName', 'ApproximateAgeOfOldestMessage'),
    search('Stream functions: iterator age (ms)', 'AWS/Lambda,FunctionName', 'IteratorAge'),
  ];
  // named per region too: dashboards are account-wide
  const DashboardName = { 'Fn::Sub': `${stack}-${region}` };
  const Properties = { DashboardName, DashboardBody: { 'Fn::Sub': JSON.stringify({ widgets }) } };
  return { Resources: { Dashboard: { Type: 'AWS::CloudWatch::Dashboard', Properties } } };
};
