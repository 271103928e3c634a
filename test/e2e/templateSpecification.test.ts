// Every CloudFormation template a deploy sends, against AWS's own CloudFormation resource
// specification (@aws-cdk/aws-service-spec): each resource type, each property set and the type of
// its literal, each required property, each Ref, Fn::GetAtt, DependsOn and condition named. What
// CloudFormation would refuse only at deploy time fails here, naming the template and the path.
import { loadAwsServiceSpecSync } from '@aws-cdk/aws-service-spec';
import type { PropertyType, ResourceProperties } from '@aws-cdk/service-spec-types';
import { beforeAll, describe, expect, it } from 'vitest';
import { cloudFormationYaml } from '../support/cloudFormationYaml.ts';
import { operatorWebhook, packageStage } from '../support/packagedTemplate.ts';

interface Resource {
  Type: string;
  Properties?: Record<string, unknown>;
  DependsOn?: string | string[];
  Condition?: string;
}
interface Template {
  Parameters?: Record<string, unknown>;
  Conditions?: Record<string, unknown>;
  Resources: Record<string, Resource>;
  Outputs?: Record<string, unknown>;
}

const spec = loadAwsServiceSpecSync();
const resourceSpec = (type: string) =>
  spec.lookup('resource', 'cloudFormationType', 'equals', type)[0];

const PSEUDO_PARAMETERS = [
  'AWS::AccountId',
  'AWS::NotificationARNs',
  'AWS::NoValue',
  'AWS::Partition',
  'AWS::Region',
  'AWS::StackId',
  'AWS::StackName',
  'AWS::URLSuffix',
];
// the specification's legacy tag type: a Key and a Value, both required
const TAG: ResourceProperties = {
  Key: { type: { type: 'string' }, required: true },
  Value: { type: { type: 'string' }, required: true },
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
/** `{ Ref }` or `{ Fn::... }`, its only key: a value CloudFormation works out at deploy time. */
const intrinsic = (value: unknown): [string, unknown] | undefined => {
  const entries = isObject(value) ? Object.entries(value) : [];
  const [entry] = entries;
  return entries.length === 1 && entry && (entry[0] === 'Ref' || entry[0].startsWith('Fn::'))
    ? entry
    : undefined;
};
const numeric = (value: unknown) =>
  typeof value === 'number' ||
  (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)));
/**
 * Whether a literal is of a primitive type, as leniently as CloudFormation takes it (and cfn-lint,
 * not strict): a number or boolean passes as the string a property takes, a numeric string as the
 * number or integer, 'true' or 'false' (capitalised or not) as the boolean.
 */
const PRIMITIVES: Record<
  Exclude<PropertyType['type'], 'ref' | 'tag' | 'array' | 'map' | 'union'>,
  (value: unknown) => boolean
> = {
  string: (value) => ['string', 'number', 'boolean'].includes(typeof value),
  'date-time': (value) => typeof value === 'string',
  number: numeric,
  integer: (value) => numeric(value) && Number.isInteger(Number(value)),
  boolean: (value) =>
    typeof value === 'boolean' || ['true', 'false', 'True', 'False'].includes(String(value)),
  null: (value) => value === null,
  json: () => true,
};

/** What is wrong with `value` as a `type`, each at its path. */
const typeProblems = (value: unknown, type: PropertyType, path: string): string[] => {
  const fn = intrinsic(value);
  // an intrinsic stands for any value, but a condition's branches are values of the type again
  if (fn) return fn[0] === 'Fn::If' && Array.isArray(fn[1]) ? ifBranches(fn[1], type, path) : [];
  const expected = (what: string) => [`${path}: expects ${what}, not ${JSON.stringify(value)}`];
  switch (type.type) {
    case 'ref':
      return propertyProblems(value, spec.get('typeDefinition', type.reference).properties, path);
    case 'tag':
      return propertyProblems(value, TAG, path);
    case 'array':
      return Array.isArray(value)
        ? value.flatMap((item, i) => typeProblems(item, type.element, `${path}[${i}]`))
        : expected('a list');
    case 'map':
      return isObject(value)
        ? Object.entries(value).flatMap(([key, item]) =>
            typeProblems(item, type.element, `${path}.${key}`),
          )
        : expected('a map');
    case 'union': {
      // the first member the value is of in shape says what is wrong within it
      const own = type.types
        .map((member) => typeProblems(value, member, path))
        .find((problems) => !problems.some((problem) => problem.startsWith(`${path}: expects`)));
      return own ?? expected(type.types.map((member) => member.type).join(' or '));
    }
    default: {
      if (!PRIMITIVES[type.type](value)) return expected(type.type);
      const allowed = 'allowedValues' in type ? type.allowedValues : undefined;
      // compared as text: CloudFormation takes 30 and '30' alike
      return !allowed || allowed.map(String).includes(String(value))
        ? []
        : expected(`one of ${allowed.join(', ')}`);
    }
  }
};
const ifBranches = ([, ...branches]: unknown[], type: PropertyType, path: string) =>
  branches.flatMap((branch) => typeProblems(branch, type, `${path}.Fn::If`));

/** Each property set that the type lacks or whose value is not of its type, each required unset. */
const propertyProblems = (
  value: unknown,
  properties: ResourceProperties,
  path: string,
): string[] => {
  if (!isObject(value)) return [`${path}: expects an object, not ${JSON.stringify(value)}`];
  return [
    ...Object.entries(value).flatMap(([name, item]) => {
      const property = properties[name];
      return property
        ? typeProblems(item, property.type, `${path}.${name}`)
        : [`${path}.${name}: no such property; there are ${Object.keys(properties).join(', ')}`];
    }),
    ...Object.entries(properties)
      .filter(([name, { required }]) => required && !(name in value))
      .map(([name]) => `${path}.${name}: required, not set`),
  ];
};

/** Each Ref, Fn::GetAtt (also `${Id.Attribute}` in Fn::Sub), DependsOn and condition that names nothing. */
const referenceProblems = (template: Template): string[] => {
  const {
    Resources: resources,
    Parameters: parameters = {},
    Conditions: conditions = {},
  } = template;
  const ref = (name: string, path: string) =>
    name in resources || name in parameters || PSEUDO_PARAMETERS.includes(name)
      ? []
      : [`${path}: Ref ${name} names no resource, parameter or pseudo parameter`];
  const getAtt = (id: string, attribute: string, path: string) => {
    const target = resources[id];
    if (!target) return [`${path}: Fn::GetAtt ${id}.${attribute} names no resource`];
    const type = resourceSpec(target.Type);
    // a type the specification lacks is reported as such
    if (!type || attribute in type.attributes) return [];
    const attributes = Object.keys(type.attributes).join(', ');
    return [
      `${path}: Fn::GetAtt ${id}.${attribute}: ${target.Type} has no attribute ${attribute}; it has ${attributes}`,
    ];
  };
  const condition = (name: unknown, path: string) =>
    typeof name === 'string' && name in conditions
      ? []
      : [`${path}: names no condition ${name}; there are ${Object.keys(conditions).join(', ')}`];
  const walk = (value: unknown, path: string): string[] => {
    if (Array.isArray(value)) return value.flatMap((item, i) => walk(item, `${path}[${i}]`));
    if (!isObject(value)) return [];
    const [fn, arg] = intrinsic(value) ?? [];
    const own = (): string[] => {
      if (fn === 'Ref') return ref(String(arg), path);
      if (fn === 'Fn::If' && Array.isArray(arg)) return condition(arg[0], `${path}.Fn::If`);
      if (fn === 'Fn::GetAtt') {
        const [id = '', attribute = ''] = Array.isArray(arg) ? arg : String(arg).split(/\.(.*)/);
        return getAtt(String(id), String(attribute), path);
      }
      if (fn !== 'Fn::Sub') return [];
      const [text, variables = {}] = Array.isArray(arg) ? arg : [arg];
      return [...String(text).matchAll(/\$\{([^!}][^}]*)\}/g)].flatMap(([, name = '']) => {
        if (name in variables) return [];
        const [id = '', attribute] = name.split(/\.(.*)/);
        return attribute ? getAtt(id, attribute, path) : ref(id, path);
      });
    };
    return [
      ...own(),
      ...Object.entries(value).flatMap(([key, item]) => walk(item, `${path}.${key}`)),
    ];
  };
  return [
    ...Object.entries(resources).flatMap(([id, { DependsOn = [], Condition }]) => [
      ...[DependsOn]
        .flat()
        .filter((dependency) => !(dependency in resources))
        .map((dependency) => `Resources.${id}.DependsOn: names no resource ${dependency}`),
      ...(Condition === undefined ? [] : condition(Condition, `Resources.${id}.Condition`)),
    ]),
    ...walk(resources, 'Resources'),
    ...walk(template.Outputs, 'Outputs'),
    ...walk(conditions, 'Conditions'),
  ];
};

/** Everything in `template` that CloudFormation's specification says it would refuse. */
const problems = (template: Template): string[] => [
  ...Object.entries(template.Resources).flatMap(([id, { Type, Properties = {} }]) => {
    const type = resourceSpec(Type);
    return type
      ? propertyProblems(Properties, type.properties, `Resources.${id}.Properties`)
      : [`Resources.${id}.Type: ${Type} is no resource type of CloudFormation's specification`];
  }),
  ...referenceProblems(template),
];

const HAND_WRITTEN = ['infra/deploy-role.yml', 'infra/github-oidc.yml'];
const PACKAGINGS = ['dev', 'prod'].flatMap((stage) => [
  { name: `the ${stage} stage`, stage, env: {} },
  { name: `the ${stage} stage with the operator's webhook`, stage, env: operatorWebhook(stage) },
]);

const templates = new Map<string, Template>(
  HAND_WRITTEN.map((file) => [file, cloudFormationYaml<Template>(file)]),
);
const templateOf = (name: string) => {
  const template = templates.get(name);
  if (!template) throw new Error(`${name} was not packaged`);
  return template;
};

beforeAll(async () => {
  // one at a time: every packaging writes the same .serverless/ folder
  for (const { name, stage, env } of PACKAGINGS)
    templates.set(name, await packageStage<Template>(stage, env));
}, 300_000);

it.each([...PACKAGINGS.map(({ name }) => name), ...HAND_WRITTEN])(
  "%s holds to CloudFormation's resource specification",
  (name) => {
    const template = templateOf(name);
    expect(Object.keys(template.Resources).length).toBeGreaterThan(0);
    expect(
      problems(template).map((problem) => `${name}: ${problem}`),
      'fix the template (serverless.yml, infra/*.yml) at each path named, or update @aws-cdk/aws-service-spec where it lags behind CloudFormation',
    ).toEqual([]);
  },
);

describe('the check, on the dev stage template spoiled one way', () => {
  /** The problems of the dev stage template with the first resource of `type` changed. */
  const spoiled = (
    type: string,
    change: (properties: Record<string, unknown>, resource: Resource) => void,
  ) => {
    const template = structuredClone(templateOf('the dev stage'));
    const [id, resource] =
      Object.entries(template.Resources).find(([, resource]) => resource.Type === type) ?? [];
    if (!id || !resource?.Properties)
      throw new Error(`the dev stage has no ${type} with properties`);
    change(resource.Properties, resource);
    return { id, found: problems(template) };
  };

  it('finds a misspelled property', () => {
    const { id, found } = spoiled('AWS::Lambda::Function', (properties) => {
      properties.MemorySise = properties.MemorySize;
      delete properties.MemorySize;
    });
    expect(found).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Resources\\.${id}\\.Properties\\.MemorySise: no such property; there are .*MemorySize`,
        ),
      ),
    ]);
  });

  it('finds a required property removed, within a list of a nested type', () => {
    const { id, found } = spoiled('AWS::DynamoDB::Table', (properties) => {
      const [key] = properties.KeySchema as Record<string, unknown>[];
      delete key?.AttributeName;
    });
    expect(found).toEqual([
      `Resources.${id}.Properties.KeySchema[0].AttributeName: required, not set`,
    ]);
  });

  it('finds an unknown resource type', () => {
    const { id, found } = spoiled('AWS::SQS::Queue', (_, queue) => {
      queue.Type = 'AWS::SQS::Queues';
    });
    expect(found).toEqual([
      `Resources.${id}.Type: AWS::SQS::Queues is no resource type of CloudFormation's specification`,
    ]);
  });

  it('finds an Fn::GetAtt of an attribute its resource type lacks, and one of no resource', () => {
    const { id, found } = spoiled('AWS::Lambda::Function', (properties) => {
      const [role] = (properties.Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'];
      properties.Role = { 'Fn::GetAtt': [role, 'Arns'] };
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Fn::Sub's own variable syntax
      properties.Description = { 'Fn::Sub': 'by ${NoSuchRole.Arn}' };
    });
    expect(found).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Resources\\.${id}\\.Properties\\.Role: Fn::GetAtt \\w+\\.Arns: AWS::IAM::Role has no attribute Arns; it has .*Arn`,
        ),
      ),
      `Resources.${id}.Properties.Description: Fn::GetAtt NoSuchRole.Arn names no resource`,
    ]);
  });

  it("finds a literal of another type than its property's or not of its values, a Ref, a DependsOn and a condition of nothing", () => {
    const { id, found } = spoiled('AWS::Lambda::Function', (properties, resource) => {
      properties.MemorySize = 'lots';
      properties.TracingConfig = { Mode: { 'Fn::If': ['NoSuchCondition', 'Active', ['Active']] } };
      properties.LoggingConfig = { ...(properties.LoggingConfig as object), LogFormat: 'Json' };
      properties.Code = { ...(properties.Code as object), S3Bucket: { Ref: 'NoSuchBucket' } };
      resource.DependsOn = ['NoSuchLogGroup'];
    });
    expect(found).toEqual([
      `Resources.${id}.Properties.MemorySize: expects integer, not "lots"`,
      `Resources.${id}.Properties.TracingConfig.Mode.Fn::If: expects string, not ["Active"]`,
      `Resources.${id}.Properties.LoggingConfig.LogFormat: expects one of Text, JSON, not "Json"`,
      `Resources.${id}.DependsOn: names no resource NoSuchLogGroup`,
      `Resources.${id}.Properties.Code.S3Bucket: Ref NoSuchBucket names no resource, parameter or pseudo parameter`,
      expect.stringMatching(
        new RegExp(
          `^Resources\\.${id}\\.Properties\\.TracingConfig\\.Mode\\.Fn::If: names no condition NoSuchCondition; there are `,
        ),
      ),
    ]);
  });

  it('takes the literals CloudFormation takes: scalars as strings, numeric and boolean strings', () => {
    const { found } = spoiled('AWS::SQS::Queue', (properties) => {
      properties.MessageRetentionPeriod = '1209600';
      properties.SqsManagedSseEnabled = 'True';
      properties.Tags = [
        { Key: 'STAGE', Value: 7 },
        { Key: 'KEPT', Value: { 'Fn::If': ['KeepRetiredIndex', true, { Ref: 'AWS::NoValue' }] } },
      ];
    });
    expect(found).toEqual([]);
  });
});
