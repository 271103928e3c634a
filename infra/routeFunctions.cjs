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
  const arn = (resource) => ({ 'Fn::GetAtt': [resource, 'Arn'] });
  const allow = (action, resource) => ({ Effect: 'Allow', Action: [action], Resource: [resource] });
  const grant = (table, action) => {
    const { resource, queries } = TABLES[table];
    const indexes = action === 'Query' && queries === 'indexes';
    return allow(
      `dynamodb:${action}`,
      indexes ? { 'Fn::Join': ['/', [arn(resource), 'index', '*']] } : arn(resource),
    );
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
        ...sends.map((queue) => allow('sqs:SendMessage', arn(QUEUES[queue]))),
      ],
    };
  }
  return functions;
};
