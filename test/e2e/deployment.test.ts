// The deployment keeps data and can be watched, for every stage: `npm run package` for two stages,
// and the properties asserted on each CloudFormation template.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repoRoot = resolve(import.meta.dirname, '..', '..');

interface Resource {
  Type: string;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
  Properties: Record<string, unknown>;
}
interface Template {
  Resources: Record<string, Resource>;
}

const templates = new Map<string, Template>();

beforeAll(async () => {
  for (const stage of ['dev', 'prod']) {
    await run(process.execPath, [join(repoRoot, 'infra', 'package.ts'), '--stage', stage], {
      cwd: repoRoot,
      // no AWS credentials: packaging must not need them
      env: {
        ...process.env,
        AWS_ACCESS_KEY_ID: '',
        AWS_SECRET_ACCESS_KEY: '',
        AWS_PROFILE: 'none',
      },
    });
    const file = join(repoRoot, '.serverless', 'cloudformation-template-update-stack.json');
    templates.set(stage, JSON.parse(readFileSync(file, 'utf8')));
  }
});

const resource = (stage: string, name: string): Resource => {
  const found = templates.get(stage)?.Resources[name];
  expect(found, `${stage} template has ${name}`).toBeDefined();
  return found as Resource;
};

describe.each(['dev', 'prod'])('the %s stage', (stage) => {
  it('keeps its table: retained, point-in-time recovery, encryption, deletion protection', () => {
    const table = resource(stage, 'PlantsTable');

    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.UpdateReplacePolicy).toBe('Retain');
    expect(table.Properties).toMatchObject({
      TableName: `plant-store-${stage}-plants`,
      BillingMode: 'PAY_PER_REQUEST',
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      SSESpecification: { SSEEnabled: true },
      DeletionProtectionEnabled: true,
    });
  });

  it('keeps the function logs for a set period', () => {
    const logs = resource(stage, 'CreatePlantLogGroup');
    expect(logs.Properties.RetentionInDays).toBe(stage === 'prod' ? 365 : 30);
  });

  it('lets the function only PutItem on its own table', () => {
    const role = resource(stage, 'IamRoleLambdaExecution').Properties as {
      Policies: { PolicyDocument: { Statement: { Action: string[]; Resource: unknown[] }[] } }[];
    };
    const statements = role.Policies.flatMap((policy) => policy.PolicyDocument.Statement);
    const dynamo = statements.filter((s) =>
      s.Action.some((action) => action.startsWith('dynamodb:')),
    );

    expect(dynamo).toEqual([
      {
        Effect: 'Allow',
        Action: ['dynamodb:PutItem'],
        Resource: [{ 'Fn::GetAtt': ['PlantsTable', 'Arn'] }],
      },
    ]);
  });

  it('sizes the function: 256 MB, and a timeout above the store retry bound', () => {
    expect(resource(stage, 'CreatePlantLambdaFunction').Properties).toMatchObject({
      Runtime: 'nodejs24.x',
      MemorySize: 256,
      Timeout: 10,
      Environment: { Variables: { LOG_LEVEL: 'INFO', METRICS_NAMESPACE: 'PlantStore' } },
    });
  });

  it('throttles the HTTP API, with limits of its own per stage', () => {
    expect(resource(stage, 'HttpApiStage').Properties.DefaultRouteSettings).toEqual(
      stage === 'prod'
        ? { ThrottlingRateLimit: 500, ThrottlingBurstLimit: 1000 }
        : { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
    );
  });

  it('alarms on 5xx answers and on DynamoDB throttles', () => {
    expect(resource(stage, 'ServerErrorsAlarm').Properties).toMatchObject({
      Namespace: 'AWS/ApiGateway',
      MetricName: '5xx',
      Dimensions: [
        { Name: 'ApiId', Value: { Ref: 'HttpApi' } },
        { Name: 'Stage', Value: '$default' },
      ],
    });
    expect(resource(stage, 'StoreThrottlesAlarm').Properties).toMatchObject({
      Namespace: 'AWS/DynamoDB',
      MetricName: 'WriteThrottleEvents',
      Dimensions: [{ Name: 'TableName', Value: { Ref: 'PlantsTable' } }],
    });
  });
});
