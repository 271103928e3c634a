// Each stage's deploy role (infra/deploy-role.yml) and its functions' roles, judged by an IAM evaluator
// not written here (@cloud-copilot/iam-simulate: identity policies, permission boundaries, every
// condition operator) in every commercial region (the SDK's partition data) for dev, prod and the
// longest stage name allowed: every call the deploy, the scripts and each function make is allowed,
// and every call on another stage's resources is denied. A negative control per kind shows the
// matrix catches a widened resource and a dropped condition.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import {
  type EvaluationResult,
  isWildcardOnlyAction,
  runSimulation,
  runUnsafeSimulation,
  type Simulation,
} from '@cloud-copilot/iam-simulate';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNT,
  apiIdOf,
  apiPath,
  deployRole,
  GITHUB_OIDC_PROVIDER,
  list,
  type Names,
  type Need,
  type Place,
  type Policy,
  physicalNames,
  REPOSITORY,
  resolve,
  resourceNeeds,
  STAGE_RULE,
  scriptNeeds,
  type Template,
} from '../support/deployCalls.ts';
import { operatorWebhook, packageStage } from '../support/packagedTemplate.ts';

/** The commercial partition's regions, from the SDK's own partition data (no list typed here). */
const REGIONS = ((): string[] => {
  const client = createRequire(import.meta.url).resolve('@aws-sdk/core/client');
  const source = readFileSync(
    join(client, '../../../../dist-es/submodules/client/util-endpoints/lib/aws/partitions.js'),
    'utf8',
  );
  const { partitions } = JSON.parse(source.slice(source.indexOf('{'), source.lastIndexOf('}') + 1));
  const aws = partitions.find((p: { id: string }) => p.id === 'aws');
  // aws-global is the partition's global endpoint, no region a stack is deployed to
  return Object.keys(aws.regions).filter((region) => /^[a-z]+-[a-z]+-\d+$/.test(region));
})();

/** The longest stage name infra/deploy-role.yml allows, found from its rule. */
const LONGEST = (() => {
  let name = 'a';
  while (STAGE_RULE.test(`${name}0`)) name += '0';
  return name;
})();
/** prod and the longest with the operator's webhook (its functions, queues and roles), dev without. */
const STAGES = ['dev', 'prod', LONGEST];
const PACKAGED_IN = 'us-east-1';

const describeNeed = ({ action, resource, by }: Need) => `${action} on ${resource} (${by})`;

/** iam-simulate's decision for one call of `principal`, with its policies and boundary. */
const decide = async (
  principal: string,
  policies: Policy[],
  need: Need,
  { boundary, validate = true }: { boundary?: Policy; validate?: boolean } = {},
): Promise<EvaluationResult> => {
  const simulation: Simulation = {
    request: {
      principal,
      action: need.action,
      resource: { resource: need.resource, accountId: ACCOUNT },
      contextVariables: need.context ?? {},
    },
    identityPolicies: policies.map((policy, i) => ({ name: `policy${i}`, policy })),
    serviceControlPolicies: [],
    resourceControlPolicies: [],
    ...(boundary && { permissionBoundaryPolicies: [{ name: 'boundary', policy: boundary }] }),
  };
  // Its action data knows API Gateway V1's resource types only: V2's (apis, routes, integrations,
  // stages, tags) fail its validation, so those calls are evaluated without it, by the same engine
  // (and a call already validated in another region, whose ARN differs only in its region, is
  // evaluated alike: an eighth of the time)
  if (need.action.startsWith('apigateway:') || !validate)
    return runUnsafeSimulation(simulation, {});
  const answer = await runSimulation(simulation, {});
  // a version's ARN (function:name:1) fits both of Lambda's types, function and version: the
  // validation can't choose, the evaluation needs no type
  if (answer.resultType === 'error' && answer.errors.message === 'multiple.resource.types')
    return runUnsafeSimulation(simulation, {});
  if (answer.resultType === 'error')
    throw new Error(`iam-simulate refuses ${describeNeed(need)}: ${JSON.stringify(answer.errors)}`);
  return answer.overallResult;
};

/** Each distinct call once (the handlers' lists repeat their reads). */
const distinct = (needs: Need[]) => [
  ...new Map(
    needs.map((need) => [JSON.stringify([need.action, need.resource, need.context]), need]),
  ).values(),
];

interface Stack {
  template: Template;
  /** per region: the stack's names and every call its deploy and scripts make */
  regions: Map<string, { names: Names; needs: Need[] }>;
}
const stacks = new Map<string, Stack>();
const stackOf = (stage: string) => {
  const found = stacks.get(stage);
  if (!found) throw new Error(`stage ${stage} was not packaged`);
  return found;
};
const at = ({ stage, region }: Place) => {
  const found = stackOf(stage).regions.get(region);
  if (!found) throw new Error(`no names for ${stage} in ${region}`);
  return found;
};

beforeAll(async () => {
  for (const stage of STAGES) {
    // dev with the dashboard its params leave out: its role must allow one given dashboard=true
    const template = await packageStage<Template>(
      stage,
      stage === 'dev' ? {} : operatorWebhook(stage),
      stage === 'dev' ? ['--param=dashboard=true'] : [],
    );
    const regions = new Map(
      REGIONS.map((region) => {
        const names = physicalNames(template, { stage, region });
        return [
          region,
          {
            names,
            needs: distinct([...resourceNeeds(template, names), ...scriptNeeds(template, names)]),
          },
        ];
      }),
    );
    stacks.set(stage, { template, regions });
  }
}, 180_000);

const deployer = ({ stage }: Place) => `arn:aws:iam::${ACCOUNT}:role/plant-store-${stage}-deploy`;

/** The calls of `needs` that `policy` does not allow (or allows, with `expected` 'denied'). */
const judged = async (
  place: Place,
  policy: Policy,
  needs: Need[],
  expected: 'allowed' | 'denied',
): Promise<string[]> => {
  const wrong: string[] = [];
  for (const need of needs) {
    const validate = place.region === PACKAGED_IN;
    const allowed = (await decide(deployer(place), [policy], need, { validate })) === 'Allowed';
    if (allowed !== (expected === 'allowed')) wrong.push(`${place.region}: ${describeNeed(need)}`);
  }
  return wrong;
};

/** Another stage's calls on its own resources: its names, its HTTP API (by its id) and its role stack. */
const onStage = (needs: Need[], stage: string) =>
  needs.filter(({ resource, context }) =>
    // a mapping's call names its function in a condition key, not its resource
    [
      `plant-store-${stage}-`,
      `/apis/${apiIdOf(stage)}`,
      encodeURIComponent(`/apis/${apiIdOf(stage)}`),
    ].some((mark) => `${resource} ${JSON.stringify(context ?? {})}`.includes(mark)),
  );

/** What must stay denied to the deploy role of `place` on its own stage, whatever it deploys. */
const forbidden = ({ stage, region }: Place, other: string): Need[] => {
  const role = `arn:aws:iam::${ACCOUNT}:role/plant-store-${stage}-createPlant-lambdaRole`;
  const ownApi = apiPath(region, `/${apiIdOf(stage)}`);
  return [
    {
      action: 'iam:CreateRole',
      resource: role,
      context: { 'iam:PermissionsBoundary': `arn:aws:iam::${ACCOUNT}:policy/AdministratorAccess` },
      by: 'a function role with a boundary not its stage’s',
    },
    {
      action: 'iam:PassRole',
      resource: role,
      context: { 'iam:PassedToService': 'ec2.amazonaws.com' },
      by: 'a function role passed to another service',
    },
    {
      action: 'iam:UpdateAssumeRolePolicy',
      resource: role,
      by: "a function role's trust rewritten",
    },
    {
      action: 'iam:DeleteRolePermissionsBoundary',
      resource: role,
      by: 'a role freed of its boundary',
    },
    {
      action: 'iam:CreatePolicyVersion',
      resource: `arn:aws:iam::${ACCOUNT}:policy/plant-store-${stage}-boundary`,
      by: 'the boundary widened',
    },
    {
      action: 'iam:UpdateAssumeRolePolicy',
      resource: `arn:aws:iam::${ACCOUNT}:role/plant-store-${stage}-deploy`,
      by: 'the deploy role’s own trust rewritten',
    },
    {
      action: 'apigateway:POST',
      resource: `arn:aws:apigateway:${region}::/tags/${encodeURIComponent(ownApi)}`,
      context: {
        'aws:ResourceTag/STAGE': stage,
        'aws:RequestTag/STAGE': other,
        'aws:TagKeys': ['STAGE'],
      },
      by: 'its HTTP API tagged as another stage’s',
    },
    {
      action: 'apigateway:DELETE',
      resource: `arn:aws:apigateway:${region}::/tags/${encodeURIComponent(ownApi)}`,
      context: { 'aws:ResourceTag/STAGE': stage, 'aws:TagKeys': ['STAGE'] },
      by: 'its HTTP API freed of its STAGE tag',
    },
    {
      action: 'apigateway:POST',
      resource: `arn:aws:apigateway:${region}::/tags/${encodeURIComponent(apiPath(region, '/u1v2w3x4y5'))}`,
      context: { 'aws:RequestTag/STAGE': stage, 'aws:TagKeys': ['STAGE'] },
      by: 'an untagged HTTP API (another stage’s, of an older version) claimed',
    },
  ];
};

/** Every way the deploy role of `place` can go wrong, as `check` finds them: none, when right. */
const deployRoleFaults = async (
  place: Place,
  policy: Policy,
  other: string,
  { httpApiPinned = false } = {},
) => {
  const own = at(place).needs;
  const others = onStage(at({ stage: other, region: place.region }).needs, other);
  // routes and integrations can have no tag in API Gateway V2: only a pinned API id (the role
  // stack's HttpApiId) keeps another stage's from the role (docs/deployment.md)
  const untaggable = (need: Need) => /\/(routes|integrations)(\/|$)/.test(need.resource);
  return [
    ...(await judged(place, policy, own, 'allowed')),
    ...(await judged(place, policy, forbidden(place, other), 'denied')),
    ...(await judged(
      place,
      policy,
      others.filter((need) => httpApiPinned || !untaggable(need)),
      'denied',
    )),
  ];
};

describe.each(STAGES)('the %s deploy role', (stage) => {
  it('is assumed only by the stage environment of the repository, on main', () => {
    const { trust } = deployRole({ stage, region: PACKAGED_IN });
    expect(trust.Statement).toEqual([
      {
        Effect: 'Allow',
        Principal: { Federated: GITHUB_OIDC_PROVIDER },
        Action: 'sts:AssumeRoleWithWebIdentity',
        Condition: {
          StringEquals: {
            'token.actions.githubusercontent.com:aud': 'sts.amazonaws.com',
            'token.actions.githubusercontent.com:sub': `repo:${REPOSITORY}:environment:${stage}:ref:refs/heads/main`,
          },
        },
      },
    ]);
  });

  it("without a repository, is assumed by the account's people, as their IAM policies allow", () => {
    expect(
      deployRole({ stage, region: PACKAGED_IN }, { fromGitHub: false }).trust.Statement,
    ).toEqual([
      {
        Effect: 'Allow',
        Principal: { AWS: `arn:aws:iam::${ACCOUNT}:root` },
        Action: 'sts:AssumeRole',
      },
    ]);
  });

  it('in every region, allows every call of the deploy, the removal and the scripts, and nothing of its own it must not do, nor of another stage', async () => {
    const other = stage === 'prod' ? 'dev' : 'prod';
    const faults: string[] = [];
    for (const region of REGIONS) {
      const place = { stage, region };
      faults.push(...(await deployRoleFaults(place, deployRole(place).policy, other)));
      if (region !== PACKAGED_IN) continue;
      const pinned = deployRole(place, { httpApiId: apiIdOf(stage) }).policy;
      faults.push(...(await deployRoleFaults(place, pinned, other, { httpApiPinned: true })));
    }
    expect(faults).toEqual([]);
  }, 300_000);

  it('grants no action that no resource of the stage or script needs', () => {
    const { policy } = deployRole({ stage, region: PACKAGED_IN });
    const needed = new Set(at({ stage, region: PACKAGED_IN }).needs.map(({ action }) => action));
    const unneeded = policy.Statement.filter(({ Effect }) => Effect === 'Allow').flatMap(
      ({ Sid, Action }) =>
        list(Action)
          .filter((action) => !needed.has(action))
          .map((action) => `${action} (${Sid})`),
    );
    expect(unneeded).toEqual([]);
  });

  it('puts the stage boundary on every role of the stack', () => {
    const { template } = stackOf(stage);
    const { names } = at({ stage, region: PACKAGED_IN });
    const { boundaryArn } = deployRole({ stage, region: PACKAGED_IN });
    const roles = Object.entries(template.Resources).filter(([, r]) => r.Type === 'AWS::IAM::Role');
    expect(roles.length).toBeGreaterThan(1);
    const unbounded = roles
      .filter(([, r]) => resolve(r.Properties.PermissionsBoundary, names) !== boundaryArn)
      .map(([id]) => id);
    expect(unbounded).toEqual([]);
  });

  it("in every region, lets each function's role do what its statements grant within the boundary, and nothing of another stage", async () => {
    const other = stage === 'prod' ? 'dev' : 'prod';
    const { template } = stackOf(stage);
    const faults: string[] = [];
    for (const region of REGIONS) {
      const { names } = at({ stage, region });
      const { boundary } = deployRole({ stage, region });
      const theirs = at({ stage: other, region }).names;
      for (const { roleArn, policies, grants } of functionRoles(template, names)) {
        for (const grant of grants) {
          // an action that takes no resource (dynamodb:ListStreams, which osls grants on the
          // stream) allows nothing when granted on one: no call of the function needs it
          const [service = '', action = ''] = grant.action.split(':');
          if (grant.resource !== '*' && (await isWildcardOnlyAction(service, action))) continue;
          const checks = { boundary, validate: region === PACKAGED_IN };
          if ((await decide(roleArn, policies, grant, checks)) !== 'Allowed')
            faults.push(`${region}: ${describeNeed(grant)} not allowed`);
          // the same call on the other stage's resource of the same logical id
          const elsewhere = { ...grant, resource: grant.resourceOf(theirs) };
          if (elsewhere.resource === grant.resource) continue;
          if ((await decide(roleArn, policies, elsewhere, checks)) === 'Allowed')
            faults.push(`${region}: ${describeNeed(elsewhere)} allowed`);
        }
      }
    }
    expect(faults).toEqual([]);
  }, 300_000);
});

/** A value of a condition that its pattern matches: its wildcards filled in. */
const instance = (pattern: string | string[]) =>
  Array.isArray(pattern) ? pattern.map((p) => p.replace(/\*/g, 'x')) : pattern.replace(/\*/g, 'x');

/**
 * Each function's role of the template: its ARN, its policies, and each call a statement grants,
 * with the context its conditions ask for and its resource as another stage's names would make it.
 */
const functionRoles = (template: Template, names: Names) =>
  Object.entries(template.Resources)
    .filter(([, r]) => r.Type === 'AWS::Lambda::Function')
    .map(([id, fn]) => {
      const roleId = (fn.Properties.Role as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'][0];
      const written = template.Resources[roleId]?.Properties as {
        Policies: { PolicyDocument: { Statement: { Action: string[]; Resource: unknown[] }[] } }[];
      };
      const role = resolve(written, names) as {
        RoleName: string;
        Policies: { PolicyDocument: Policy }[];
      };
      const policies = role.Policies.map(({ PolicyDocument }) => PolicyDocument);
      const grants = written.Policies.flatMap(({ PolicyDocument }, p) =>
        PolicyDocument.Statement.flatMap((statement, s) => {
          const resolved = policies[p]?.Statement[s];
          if (!resolved) return [];
          const context = Object.fromEntries(
            Object.values(resolved.Condition ?? {}).flatMap((keys) =>
              Object.entries(keys).map(([key, pattern]) => [key, instance(pattern)]),
            ),
          );
          return list(resolved.Action).flatMap((action) =>
            list(statement.Resource as string | string[]).map((resource, r) => ({
              action,
              resource: list(resolved.Resource)[r] ?? '',
              context,
              by: `${id}'s role ${roleId}`,
              resourceOf: (other: Names) => {
                try {
                  return String(resolve(resource, other));
                } catch {
                  return list(resolved.Resource)[r] ?? ''; // a resource the other stage lacks
                }
              },
            })),
          );
        }),
      );
      return { roleArn: `arn:aws:iam::${ACCOUNT}:role/${role.RoleName}`, policies, grants };
    });

describe('the negative controls: the matrix catches', () => {
  const place = { stage: 'dev', region: 'ap-southeast-2' };
  const changed = (edit: (policy: Policy) => void) => {
    const policy = structuredClone(deployRole(place).policy);
    edit(policy);
    return policy;
  };
  const statement = (policy: Policy, sid: string) => {
    const found = policy.Statement.find(({ Sid }) => Sid === sid);
    if (!found) throw new Error(`infra/deploy-role.yml has no statement ${sid}`);
    return found;
  };

  it('a widened resource (the tables of every stage)', async () => {
    const widened = changed((policy) => {
      statement(policy, 'TheStagesTables').Resource = 'arn:aws:dynamodb:*:*:table/plant-store-*';
    });
    const faults = await deployRoleFaults(place, widened, 'prod');
    expect(faults).toContainEqual(
      expect.stringContaining(
        `ap-southeast-2: dynamodb:DeleteTable on arn:aws:dynamodb:ap-southeast-2:${ACCOUNT}:table/plant-store-prod-plants (`,
      ),
    );
  });

  it("a dropped condition (another stage's HTTP API)", async () => {
    const dropped = changed((policy) => {
      policy.Statement = policy.Statement.filter(({ Sid }) => Sid !== 'NoHttpApiOfAnotherStage');
    });
    const faults = await deployRoleFaults(place, dropped, 'prod');
    expect(faults).toContain(
      `ap-southeast-2: apigateway:DELETE on ${apiPath('ap-southeast-2', `/${apiIdOf('prod')}`)} (HttpApi (AWS::ApiGatewayV2::Api, delete))`,
    );
  });

  it("a dropped condition (a function role without the stage's boundary)", async () => {
    const dropped = changed((policy) => {
      delete statement(policy, 'TheFunctionsRolesOnlyWithTheBoundary').Condition;
    });
    expect(await deployRoleFaults(place, dropped, 'prod')).toEqual([
      `ap-southeast-2: iam:CreateRole on arn:aws:iam::${ACCOUNT}:role/plant-store-dev-createPlant-lambdaRole (a function role with a boundary not its stage’s)`,
    ]);
  });

  it("a dropped condition (a stream mapping of another stage's function)", async () => {
    const dropped = changed((policy) => {
      delete statement(policy, 'StreamAndQueueMappingsOfThoseFunctions').Condition;
    });
    const faults = await deployRoleFaults(place, dropped, 'prod');
    expect(faults.some((fault) => fault.includes('lambda:CreateEventSourceMapping on *'))).toBe(
      true,
    );
  });
});

it('names no region in the packaged template but through AWS::Region, so one packaging serves every region', () => {
  for (const stage of STAGES)
    expect(JSON.stringify(stackOf(stage).template)).not.toContain(PACKAGED_IN);
});

/** AWS's limits on the names the stack makes, each by the resource's type. */
const NAME_LIMITS: Record<string, [property: string, limit: number]> = {
  'AWS::IAM::Role': ['RoleName', 64],
  'AWS::Lambda::Function': ['FunctionName', 64],
  'AWS::SQS::Queue': ['QueueName', 80],
  'AWS::DynamoDB::Table': ['TableName', 255],
  'AWS::Logs::LogGroup': ['LogGroupName', 512],
  'AWS::CloudWatch::Alarm': ['AlarmName', 255],
  'AWS::CloudWatch::Dashboard': ['DashboardName', 255],
};

it(`fits every name within AWS's limits, for the longest stage name allowed (${LONGEST}) in every region`, () => {
  const { template } = stackOf(LONGEST);
  const tooLong: string[] = [];
  for (const region of REGIONS) {
    const { names } = at({ stage: LONGEST, region });
    for (const [id, { Type, Properties }] of Object.entries(template.Resources)) {
      const [property, limit] = NAME_LIMITS[Type] ?? [];
      const name =
        property && Properties[property] !== undefined
          ? String(resolve(Properties[property], names))
          : (names.atts[id]?.QueueName ?? names.refs[id]);
      // the deployment bucket: CloudFormation's name, at most 63 characters
      const max = Type === 'AWS::S3::Bucket' ? 63 : (limit ?? Number.POSITIVE_INFINITY);
      if (name && name.length > max)
        tooLong.push(`${region}: ${id} ${name} (${name.length} > ${max})`);
    }
    // and the role stack's own: its deploy role and boundary (64 and 128)
    const { boundaryArn } = deployRole({ stage: LONGEST, region });
    if (`plant-store-${LONGEST}-deploy`.length > 64) tooLong.push('the deploy role');
    if ((boundaryArn?.split('/').at(-1) ?? '').length > 128) tooLong.push('the boundary');
  }
  expect(tooLong).toEqual([]);
  // the rule is what binds: one character more, and the deployment bucket's name would not fit
  expect(STAGE_RULE.test(`${LONGEST}0`)).toBe(false);
  expect(`plant-store-${LONGEST}0-serverlessdeploymentbucket-A1B2C3D4E5F6G`.length).toBeGreaterThan(
    63,
  );
});
