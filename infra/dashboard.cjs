// The stage's CloudWatch dashboard (docs/operations.md, "Dashboard"): the alarms' state; the API's
// answers; each route's answers by status and p99 (from its request lines); deliveries by outcome;
// each queue's oldest message and each stream function's iterator age; our custom metrics. Every
// list comes from where it is declared: the route list, serverless.yml's and the YAML files'
// functions, queues and alarms (the operator's only in a stage with its webhook), CUSTOM_METRICS.
const operatorWebhook = require('./operatorWebhook.cjs');

// the outcomes of an attempt to a caller's endpoint and of the operator's webhook: each a field of
// the attempt's log line, which Logs Insights sums (docs/operations.md, "Metrics")
const ENDPOINT_OUTCOMES = {
  delivered: 'EndpointEventsDelivered',
  failed: 'EndpointAttemptsFailed',
  exhausted: 'EndpointEventsExhausted',
  dropped: 'EndpointEventsDropped',
};
const OPERATOR_OUTCOMES = {
  delivered: 'WebhooksDelivered',
  failed: 'WebhookAttemptsFailed',
  deadLettered: 'WebhooksDeadLettered',
};

// CloudWatch's grid is 24 units wide
const GRID_WIDTH = 24;

/** serverless.yml's logical id of a function's resources: createPlant → CreatePlant. */
const logicalName = (name) => `${name[0].toUpperCase()}${name.slice(1)}`;

/** Widgets placed left to right, each section starting a row under its title. */
const layout = (sections) => {
  const widgets = [];
  let y = 0;
  for (const { title, widgets: row } of sections) {
    widgets.push({
      type: 'text',
      x: 0,
      y,
      width: GRID_WIDTH,
      height: 1,
      properties: { markdown: `## ${title}` },
    });
    y += 1;
    let x = 0;
    let rowHeight = 0;
    for (const { width, height, ...widget } of row) {
      if (x + width > GRID_WIDTH) {
        y += rowHeight;
        x = 0;
        rowHeight = 0;
      }
      widgets.push({ ...widget, x, y, width, height });
      x += width;
      rowHeight = Math.max(rowHeight, height);
    }
    y += rowHeight;
  }
  return widgets;
};

module.exports = async ({ resolveVariable }) => {
  const { ROUTES, routeKey } = await import('#lib/routes/routeList.ts');
  const { CUSTOM_METRICS, METRIC_NAMES } = await import('#lib/telemetry.ts');
  const { SERVICE_NAME } = await import('#lib/config/telemetry.ts');
  const { declaredFunctions, declaredWebhookResources, yamlOf } = await import('./local/paths.ts');
  for (const name of [...Object.values(ENDPOINT_OUTCOMES), ...Object.values(OPERATOR_OUTCOMES)])
    if (!METRIC_NAMES.includes(name)) throw new Error(`infra/dashboard.cjs: ${name} is no metric`);

  // the operator's webhook's functions, queues and alarms exist only where operatorWebhook.cjs adds them
  const operator = Object.keys(await operatorWebhook.resources({ resolveVariable })).length > 0;
  const { functions: operatorFunctions, resources: operatorResources } = yamlOf(
    'infra',
    'operatorWebhook.yml',
  );
  const ofStage = ([id]) =>
    operator || !(id in operatorFunctions || id in operatorResources.Resources);
  const functions = Object.entries(declaredFunctions()).filter(ofStage);
  const resources = Object.entries({
    ...yamlOf('infra', 'alarms.yml').Resources,
    ...declaredWebhookResources(),
  }).filter(ofStage);
  const idsOf = (type) => resources.filter(([, r]) => r.Type === type).map(([id]) => id);
  const withEvent = (event) =>
    functions.filter(([, f]) => (f.events ?? []).some((e) => event in e)).map(([name]) => name);

  const service = await resolveVariable('self:service');
  const stage = await resolveVariable('sls:stage');
  const { METRICS_NAMESPACE: namespace } = await resolveVariable(
    'self:custom.environment.telemetry',
  );
  // what Fn::Sub fills in the body: a LogicalId's Ref, a LogicalId.Attribute's GetAtt
  const sub = (name) => `\${${name}}`;
  const region = sub('AWS::Region');
  const api = ['ApiId', sub('HttpApi'), 'Stage', '$default'];
  const fn = (name) => ['FunctionName', sub(`${logicalName(name)}LambdaFunction`)];
  const queue = (id) => ['QueueName', sub(`${id}.QueueName`)];
  const ours = (name) => [namespace, name, 'service', SERVICE_NAME];
  const graph = (title, metrics, { width = 8, period = 60 } = {}) => ({
    type: 'metric',
    width,
    height: 6,
    properties: { title, region, view: 'timeSeries', stacked: false, period, metrics },
  });
  const sum = (label) => ({ stat: 'Sum', label });
  // an attempt's outcomes by 5 minutes, from the log lines of the functions that make attempts
  const outcomes = (title, names, outcomesByLabel) => ({
    type: 'log',
    width: 8,
    height: 6,
    properties: {
      title,
      region,
      view: 'timeSeries',
      stacked: false,
      query: [
        names.map((name) => `SOURCE '${sub(`${logicalName(name)}LogGroup`)}'`).join(' | '),
        `filter ${Object.values(outcomesByLabel)
          .map((metric) => `ispresent(${metric})`)
          .join(' or ')}`,
        `stats ${Object.entries(outcomesByLabel)
          .map(([label, metric]) => `sum(${metric}) as ${label}`)
          .join(', ')} by bin(5m)`,
      ].join(' | '),
    },
  });

  // each route of the list, then each other function of the HTTP API (our 404 and 405)
  const httpFunctions = [
    ...Object.entries(ROUTES).map(([name, route]) => [name, routeKey(route)]),
    ...functions
      .filter(([, f]) => (f.events ?? []).some((e) => 'httpApi' in e))
      .map(([name, f]) => [name, f.events.find((e) => 'httpApi' in e).httpApi]),
  ];
  // each route's answers by status (its requests and errors) and p99, from its request lines: a
  // query, not three metrics a route, keeps the dashboard within the 50 metrics CloudWatch's free
  // dashboards may draw
  const routeLines = {
    type: 'log',
    width: GRID_WIDTH,
    height: 8,
    properties: {
      title:
        'Each route: its answers by status, and their p99 latency (ms), from its request lines',
      region,
      view: 'table',
      query: [
        httpFunctions
          .map(([name]) => `SOURCE '${sub(`${logicalName(name)}LogGroup`)}'`)
          .join(' | '),
        'filter ispresent(route) and ispresent(status)',
        'stats count(*) as answers, pct(latencyMs, 99) as p99 by route, status',
        'sort route asc, status asc',
      ].join(' | '),
    },
  };
  const queues = idsOf('AWS::SQS::Queue');

  const sections = [
    {
      title: `${service}-${stage}: the alarms`,
      widgets: [
        {
          type: 'alarm',
          width: GRID_WIDTH,
          height: 3,
          properties: {
            title: 'Alarms',
            alarms: idsOf('AWS::CloudWatch::Alarm').map((id) => sub(`${id}.Arn`)),
          },
        },
      ],
    },
    {
      title: 'The API as a whole, and our custom metrics',
      widgets: [
        graph('Requests and errors (API Gateway)', [
          ['AWS/ApiGateway', 'Count', ...api, sum('requests')],
          ['AWS/ApiGateway', '4xx', ...api, sum('4xx')],
          ['AWS/ApiGateway', '5xx', ...api, sum('5xx')],
        ]),
        graph('Latency (API Gateway)', [
          ['AWS/ApiGateway', 'Latency', ...api, { stat: 'p99', label: 'p99 ms' }],
          ['AWS/ApiGateway', 'Latency', ...api, { stat: 'p50', label: 'p50 ms' }],
        ]),
        graph(
          `Custom metrics (${namespace})`,
          CUSTOM_METRICS.map((name) => [...ours(name), sum(name)]),
        ),
      ],
    },
    {
      title: 'Each route',
      widgets: [routeLines],
    },
    {
      title: `Deliveries by outcome: callers' endpoints${operator ? ", the operator's webhook" : ''}`,
      widgets: [
        outcomes(
          "Callers' endpoints: each attempt's outcome",
          ['deliverToEndpoint'],
          ENDPOINT_OUTCOMES,
        ),
        graph("Callers' endpoints: the queues", [
          ['AWS/SQS', 'NumberOfMessagesSent', ...queue('EndpointDeliveryQueue'), sum('queued')],
          ['AWS/SQS', 'NumberOfMessagesDeleted', ...queue('EndpointDeliveryQueue'), sum('taken')],
          [
            'AWS/SQS',
            'NumberOfMessagesSent',
            ...queue('EndpointSlowDeliveryQueue'),
            sum('to the slow lane (retries, slow endpoints)'),
          ],
          [
            'AWS/SQS',
            'NumberOfMessagesDeleted',
            ...queue('EndpointSlowDeliveryQueue'),
            sum('taken from the slow lane'),
          ],
          [...ours('EndpointEventsExhausted'), sum('given up (schedule used up)')],
          [
            'AWS/SQS',
            'ApproximateNumberOfMessagesVisible',
            ...queue('EndpointDeliveryPoisonQueue'),
            { stat: 'Maximum', label: 'poison (waiting)' },
          ],
        ]),
        ...(operator
          ? [
              outcomes(
                "The operator's webhook: each attempt's outcome",
                Object.keys(operatorFunctions),
                OPERATOR_OUTCOMES,
              ),
              graph("The operator's webhook: the queues", [
                [
                  'AWS/SQS',
                  'NumberOfMessagesSent',
                  ...queue('WebhookRetryQueue'),
                  sum('failed, to retry'),
                ],
                [
                  'AWS/SQS',
                  'NumberOfMessagesSent',
                  ...queue('WebhookDeadLetterQueue'),
                  sum('dead-lettered'),
                ],
              ]),
            ]
          : []),
      ],
    },
    {
      title: 'What waits: the queues and the stream',
      widgets: [
        graph(
          'Oldest message of each queue (s)',
          queues.map((id) => [
            'AWS/SQS',
            'ApproximateAgeOfOldestMessage',
            ...queue(id),
            { stat: 'Maximum', label: id },
          ]),
          { width: 12, period: 300 },
        ),
        graph(
          'Iterator age of each stream function (ms)',
          withEvent('stream').map((name) => [
            'AWS/Lambda',
            'IteratorAge',
            ...fn(name),
            { stat: 'Maximum', label: name },
          ]),
          { width: 12 },
        ),
      ],
    },
  ];
  return {
    Resources: {
      Dashboard: {
        Type: 'AWS::CloudWatch::Dashboard',
        Properties: {
          DashboardName: `${service}-${stage}`,
          DashboardBody: { 'Fn::Sub': JSON.stringify({ widgets: layout(sections) }) },
        },
      },
    },
  };
};
