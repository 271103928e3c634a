// Each function's environment: the variables its settings loaders read (lib/config/), each from its
// one source in serverless.yml's custom.environment (~: not set by the deploy). A route's loaders are
// its definition's; another function's, the group its handler loads as `loadConfig(process.env, <group>)`.
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
/** One function per handler, by its name. */
const functionNames = readdirSync(join(root, 'handlers')).map((file) => file.replace(/\.ts$/, ''));

/** The settings group a function that is no route loads (handlers/<name>.ts). */
const groupOfHandler = async (name) => {
  const text = readFileSync(join(root, 'handlers', `${name}.ts`), 'utf8');
  const group = /loadConfig\(process\.env, (\w+)\)/.exec(text)?.[1];
  const from = new RegExp(`import \\{[^}]*\\b${group}\\b[^}]*\\} from '(#lib/config/\\w+\\.ts)'`);
  const module = group && from.exec(text)?.[1];
  if (!module)
    throw new Error(
      `handlers/${name}.ts: load the settings as loadConfig(process.env, <group>), the group imported from #lib/config/`,
    );
  return (await import(module))[group];
};

/** Every function's variables, by its name (one per handler); worked out once per package. */
let all;
const functionVariables = () => (all ??= variablesByFunction());
const variablesByFunction = async () => {
  const { variablesOf } = await import('#lib/config/load.ts');
  const { httpSettings } = await import('#lib/http/dependencies.ts');
  const { routeModules } = await import('./routes.ts');
  const routes = new Map(await routeModules());
  const variables = {};
  for (const name of functionNames) {
    const route = routes.get(name);
    variables[name] = variablesOf(
      route ? { ...httpSettings, ...route.settings } : await groupOfHandler(name),
    );
  }
  return variables;
};

/** The environment of a function reading `variables`: each one's source, unless the deploy leaves it unset. */
const environmentOf = async (resolveVariable, variables) => {
  const sources = await resolveVariable('self:custom.environment');
  const read = new Set(Object.values(await functionVariables()).flat());
  const problems = [
    ...variables.filter((name) => !(name in sources)).map((name) => `${name} has no source`),
    ...Object.keys(sources)
      .filter((name) => !read.has(name))
      .map((name) => `${name} is read by no function`),
  ];
  if (problems.length > 0)
    throw new Error(
      `serverless.yml custom.environment: ${problems.join('; ')}: give each variable a loader reads one line there (~ when the deploy leaves it unset), and no others`,
    );
  return Object.fromEntries(
    variables.filter((name) => sources[name] !== null).map((name) => [name, sources[name]]),
  );
};

module.exports = Object.fromEntries(
  functionNames.map((name) => [
    name,
    async ({ resolveVariable }) =>
      environmentOf(resolveVariable, (await functionVariables())[name]),
  ]),
);
Object.assign(module.exports, { environmentOf, functionVariables });
