// serverless.yml's function of each route (lib/routes/<name>.ts, infra/routes.ts): handler, HTTP API
// event, its settings' variables, and a role with exactly its actions: a plants Query reads the
// indexes (one owner's list each), a webhooks Query the table (one owner, one partition).
const { environmentOf, functionVariables } = require('./functionSettings.cjs');

const TABLES = {
  plants: { resource: 'PlantsTable', queries: 'indexes' },
  webhooks: { resource: 'WebhooksTable', queries: 'table' },
};
// and the queues a route sends to (SendMessage only)
const QUEUES = { endpointDeliveries: 'EndpointDeliveryQueue' };

module.exports = async ({ resolveVariable }) => {
  const { routeModules } = await import('./routes.ts');
  const variables = await functionVariables();
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
  for (const [name, route] of await routeModules()) {
    const { method, path, tables, queues: sends = [] } = route;
    functions[name] = {
      handler: `handlers/${name}.handler`,
      ...(memorySizes[name] ? { memorySize: memorySizes[name] } : {}),
      environment: await environmentOf(resolveVariable, variables[name]),
      events: [{ httpApi: { method, path } }],
      iamRoleStatements: [
        ...Object.entries(tables).flatMap(([table, actions]) =>
          actions.map((action) => grant(table, action)),
        ),
        ...sends.map((queue) => ({
          Effect: 'Allow',
          Action: ['sqs:SendMessage'],
          Resource: [{ 'Fn::GetAtt': [QUEUES[queue], 'Arn'] }],
        })),
      ],
    };
  }
  return functions;
};
