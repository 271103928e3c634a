// Each function's environment: the variables its settings loaders declare (lib/config/), each from
// its one source in serverless.yml's custom.environment (~: not set by the deploy). A function that
// is no route loads its settings as `loadConfig(process.env, <group>)`, the group from lib/config/.
const { readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');

/** Every variable some loader of lib/config/ declares. */
const declaredVariables = async () => {
  const names = new Set();
  for (const file of readdirSync(join(root, 'lib/config'))) {
    for (const value of Object.values(await import(`#lib/config/${file}`)))
      for (const name of value?.variables ?? []) names.add(name);
  }
  return names;
};

/** The environment of a function whose loaders declare `variables`: each one's source, if set. */
const environmentOf = async (resolveVariable, variables) => {
  const sources = await resolveVariable('self:custom.environment');
  const declared = await declaredVariables();
  const problems = [
    ...variables.filter((name) => !(name in sources)).map((name) => `${name} has no source`),
    ...Object.keys(sources)
      .filter((name) => !declared.has(name))
      .map((name) => `${name} is read by no loader`),
  ];
  if (problems.length > 0)
    throw new Error(
      `serverless.yml custom.environment: ${problems.join('; ')}: give each variable a loader declares one line there (~ when the deploy leaves it unset), and no others`,
    );
  return Object.fromEntries(
    variables.filter((name) => sources[name] !== null).map((name) => [name, sources[name]]),
  );
};

/** The variables of the settings group a function's handler loads (handlers/<name>.ts). */
const variablesOfHandler = async (name) => {
  const text = readFileSync(join(root, 'handlers', `${name}.ts`), 'utf8');
  const group = /loadConfig\(process\.env, (\w+)\)/.exec(text)?.[1];
  const from = new RegExp(`import \\{[^}]*\\b${group}\\b[^}]*\\} from '(#lib/config/\\w+\\.ts)'`);
  const module = group && from.exec(text)?.[1];
  if (!module)
    throw new Error(
      `handlers/${name}.ts: load the settings as loadConfig(process.env, <group>), the group imported from #lib/config/`,
    );
  const { variablesOf } = await import('#lib/config/load.ts');
  return variablesOf((await import(module))[group]);
};

module.exports = Object.fromEntries(
  readdirSync(join(root, 'handlers'))
    .map((file) => file.replace(/\.ts$/, ''))
    .map((name) => [
      name,
      async ({ resolveVariable }) => environmentOf(resolveVariable, await variablesOfHandler(name)),
    ]),
);
module.exports.environmentOf = environmentOf;
