// serverless.yml's function of each route (lib/routes/routeList.ts): handler, HTTP API event, its
// tables' settings, and a role with exactly its actions: a plants Query reads the indexes (one
// owner's list each), a webhooks Query the table (one owner, one partition). Nothing to add per route.
const TABLES = {
  plants: { resource: 'PlantsTable', settings: 'plantsTable', queries: 'indexes' },
  webhooks: { resource: 'WebhooksTable', settings: 'webhooksTable', queries: 'table' },
};
// and the queues a route sends to (SendMessage only)
const QUEUES = {
  endpointDeliveries: { resource: 'EndpointDeliveryQueue', settings: 'endpointDeliveryQueue' },
};

module.exports = async ({ resolveVariable }) => {
  const { ROUTES } = await import('#lib/routes/routeList.ts');
  const settingsOf = async (groups) => {
    const environment = { ...(await resolveVariable('self:custom.environment.route')) };
    for (const group of groups) {
      Object.assign(environment, await resolveVariable(`self:custom.environment.${group}`));
    }
    return environment;
  };
  const grant = (table, action) => {
    const arn = { 'Fn::GetAtt': [TABLES[table].resource, 'Arn'] };
    return {
      Effect: 'Allow',
      Action: [`dynamodb:${action}`],
      Resource: [
        action === 'Query' && TABLES[table].queries === 'indexes'
          ? { 'Fn::Join': ['/', [arn, 'index', '*']] }
          : arn,
      ],
    };
  };
  // the memory the bench's figures chose where it is not the provider's (docs/performance.md, "Cost")
  const memorySizes = (await resolveVariable('self:custom.memorySize')) ?? {};
  const functions = {};
  for (const [name, route] of Object.entries(ROUTES)) {
    const { method, path, tables, queues: sends = [], settings = [] } = route;
    const queues = sends.map((queue) => QUEUES[queue]);
    functions[name] = {
      handler: `handlers/${name}.handler`,
      ...(memorySizes[name] ? { memorySize: memorySizes[name] } : {}),
      environment: await settingsOf([
        ...Object.keys(tables).map((table) => TABLES[table].settings),
        ...queues.map((queue) => queue.settings),
        ...settings,
      ]),
      events: [{ httpApi: { method, path } }],
      iamRoleStatements: [
        ...Object.entries(tables).flatMap(([table, actions]) =>
          actions.map((action) => grant(table, action)),
        ),
        ...queues.map(({ resource }) => ({
          Effect: 'Allow',
          Action: ['sqs:SendMessage'],
          Resource: [{ 'Fn::GetAtt': [resource, 'Arn'] }],
        })),
      ],
    };
  }
  return functions;
};
