// serverless.yml's function of each route of the route list (lib/routes/routeList.ts): its handler
// (handlers/<name>.ts), its HTTP API event, the plant routes' settings, and a role with exactly its
// table actions: a Query on the table's indexes (every one holds only plants, listed by owner),
// anything else on the table itself. A route added to the list deploys with nothing written here.
module.exports = async ({ resolveVariable }) => {
  const { ROUTES } = await import('../lib/routes/routeList.ts');
  const environment = await resolveVariable('self:custom.environment.plantRoute');
  const table = { 'Fn::GetAtt': ['PlantsTable', 'Arn'] };
  const resourceOf = (action) =>
    action === 'Query' ? { 'Fn::Join': ['/', [table, 'index', '*']] } : table;
  return Object.fromEntries(
    Object.entries(ROUTES).map(([name, { method, path, tableActions }]) => [
      name,
      {
        handler: `handlers/${name}.handler`,
        environment,
        events: [{ httpApi: { method, path } }],
        iamRoleStatements: tableActions.map((action) => ({
          Effect: 'Allow',
          Action: [`dynamodb:${action}`],
          Resource: [resourceOf(action)],
        })),
      },
    ]),
  );
};
