// A deploy stops before anything is built or created when a setting is missing, the stage's deploy
// role stack or the operator's webhook secret is not in the stack's region, or the account's Lambda
// concurrency is less than the stage takes: `sls deploy` run as a deployer would, SSM's,
// CloudFormation's and Lambda's answers given by local servers at the SDK's endpoints (no AWS call
// leaves this machine).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { SSMClient } from '@aws-sdk/client-ssm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_NAMES } from '#lib/routes/routeList.ts';
import { repoRoot, serverlessCli, yamlOf } from '../../infra/local/paths.ts';
import { concurrencyProblem, secretParameterProblem } from '../../infra/stage/settings.ts';
import { startCloudFormationStub } from '../support/cloudFormationStub.ts';
import { type SsmRequest, startSsmStub } from '../support/ssmStub.ts';

const run = promisify(execFile);

/** SSM's DescribeParameters, as AWS answers it: the parameters `held` of those asked for. */
let held: string[] = [];
const asked: SsmRequest[] = [];
let ssm: Awaited<ReturnType<typeof startSsmStub>>;
let ssmEndpoint = '';
/** CloudFormation, in a region that holds the stage's deploy role stack, and in one that does not. */
let withRoleStack: Awaited<ReturnType<typeof startCloudFormationStub>>;
let withoutRoleStack: Awaited<ReturnType<typeof startCloudFormationStub>>;
/** Lambda's GetAccountSettings, as AWS answers it: an account whose concurrency is `quota`. */
let quota = 1000;
const lambdaAsked: SsmRequest[] = [];
let lambda: Awaited<ReturnType<typeof startSsmStub>>;

beforeAll(async () => {
  withRoleStack = await startCloudFormationStub({ 'plant-store-check-deploy-role': {} });
  withoutRoleStack = await startCloudFormationStub(
    { 'plant-store-rolledback-deploy-role': {} },
    { 'plant-store-rolledback-deploy-role': 'ROLLBACK_COMPLETE' },
  );
  ssm = await startSsmStub((request) => {
    asked.push(request);
    const [filter] = request.input.ParameterFilters as { Values: string[] }[];
    const name = filter?.Values[0] ?? '';
    return { Parameters: held.includes(name) ? [{ Name: name, Type: 'SecureString' }] : [] };
  });
  ssmEndpoint = ssm.endpoint;
  lambda = await startSsmStub((request) => {
    lambdaAsked.push(request);
    return { AccountLimit: { ConcurrentExecutions: quota, UnreservedConcurrentExecutions: quota } };
  });
});
afterAll(async () => {
  await Promise.all([ssm.close(), lambda.close(), withRoleStack.stop(), withoutRoleStack.stop()]);
});

/** `npx sls deploy` with these settings, and what it printed when it stopped. */
const deploy = async (env: NodeJS.ProcessEnv, args: string[] = []) =>
  run(process.execPath, [serverlessCli, 'deploy', ...(args.length ? args : ['--stage', 'check'])], {
    cwd: repoRoot,
    env: {
      ...process.env,
      SLS_TELEMETRY_DISABLED: '1',
      AUTH_ISSUER: '',
      AUTH_AUDIENCE: '',
      WEBHOOK_URL: '',
      WEBHOOK_SECRET_PARAMETER: '',
      AWS_ACCESS_KEY_ID: 'check',
      AWS_SECRET_ACCESS_KEY: 'check',
      AWS_PROFILE: '',
      AWS_ENDPOINT_URL_SSM: ssmEndpoint,
      AWS_ENDPOINT_URL_CLOUDFORMATION: withRoleStack.url,
      AWS_ENDPOINT_URL_LAMBDA: lambda.endpoint,
      // anything else the deploy would call fails here, not in an AWS account
      AWS_ENDPOINT_URL: 'http://127.0.0.1:9',
      ...env,
    },
  }).then(
    () => 'deployed',
    (error: { stdout?: string; stderr?: string }) => `${error.stdout}${error.stderr}`,
  );

describe('the deploy, before anything is created', () => {
  it('stops naming each missing setting and how to give it', async () => {
    const said = await deploy({});
    expect(said).toContain(
      'authIssuer is not set: give --param="authIssuer=<your issuer URL>" or set AUTH_ISSUER',
    );
    expect(said).toContain('authAudience is not set: give --param="authAudience=');
    // before packaging: nothing built
    expect(said).not.toMatch(/Packaging/);
  });

  it('stops on an audience list with an empty entry, which every function would refuse', async () => {
    const said = await deploy({ AUTH_ISSUER: 'https://issuer.example.com/' }, [
      '--stage',
      'check',
      '--param=authAudience=web-client,,smoke-client',
    ]);
    expect(said).toContain(
      'authAudience (AUTH_AUDIENCE) must be audiences separated by commas, none empty: write "<web client id>,<smoke client id>"',
    );
    expect(said).not.toMatch(/Packaging/);
  });

  it('stops on a stage name its deploy role could not hold to the stage', async () => {
    const said = await deploy(
      { AUTH_ISSUER: 'https://issuer.example.com/', AUTH_AUDIENCE: 'plant-store' },
      ['--stage', 'dev-x'],
    );
    expect(said).toContain(
      'The stage name "dev-x" is not allowed: up to 10 lowercase letters and digits',
    );
    expect(said).not.toMatch(/Packaging/);
    // one longer than its deployment bucket's name can hold
    const tooLong = await deploy(
      { AUTH_ISSUER: 'https://issuer.example.com/', AUTH_AUDIENCE: 'plant-store' },
      ['--stage', 'staging1234'],
    );
    expect(tooLong).toContain('The stage name "staging1234" is not allowed');
  });

  it("stops when the operator's webhook has a receiver and no secret", async () => {
    const said = await deploy({
      AUTH_ISSUER: 'https://issuer.example.com/',
      AUTH_AUDIENCE: 'plant-store',
      WEBHOOK_URL: 'https://hooks.example.com/plants',
    });
    expect(said).toContain('webhookSecretParameter is not set, and webhookUrl is');
    expect(said).not.toMatch(/Packaging/);
  });

  it("stops on a secret's parameter outside the stage's own, which its functions could not read", async () => {
    const said = await deploy({
      AUTH_ISSUER: 'https://issuer.example.com/',
      AUTH_AUDIENCE: 'plant-store',
      WEBHOOK_URL: 'https://hooks.example.com/plants',
      WEBHOOK_SECRET_PARAMETER: '/plant-store/prod/webhook-secret',
    });
    expect(said).toContain(
      'webhookSecretParameter /plant-store/prod/webhook-secret is not under /plant-store/check/: name it there',
    );
    expect(said).not.toMatch(/Packaging/);
  });

  it("stops in a region other than its deploy role stack's, whose boundary names its own", async () => {
    const said = await deploy({
      AUTH_ISSUER: 'https://issuer.example.com/',
      AUTH_AUDIENCE: 'plant-store',
      AWS_REGION: 'ap-northeast-1',
      AWS_ENDPOINT_URL_CLOUDFORMATION: withoutRoleStack.url,
    });
    expect(said).toContain(
      'The stage check has no deploy role stack (plant-store-check-deploy-role) in ap-northeast-1: a stage lives in its role stack',
    );
    expect(said).not.toMatch(/Packaging/);
    const [asked] = withoutRoleStack.requests;
    expect(asked?.form.get('StackName')).toBe('plant-store-check-deploy-role');
    expect(asked?.authorization).toContain('/ap-northeast-1/cloudformation/');
    // one whose creation rolled back holds no role and no boundary
    const rolledBack = await deploy(
      {
        AUTH_ISSUER: 'https://issuer.example.com/',
        AUTH_AUDIENCE: 'plant-store',
        AWS_ENDPOINT_URL_CLOUDFORMATION: withoutRoleStack.url,
      },
      ['--stage', 'rolledback'],
    );
    expect(rolledBack).toContain(
      "The stage rolledback's deploy role stack (plant-store-rolledback-deploy-role) in us-east-1 is ROLLBACK_COMPLETE: its creation failed",
    );
    expect(rolledBack).not.toMatch(/Packaging/);
  });

  it("stops when the secret's parameter is not in the stack's region, naming both", async () => {
    // held in another region: the stub answers for the region asked, which holds none
    held = [];
    const said = await deploy({
      AUTH_ISSUER: 'https://issuer.example.com/',
      AUTH_AUDIENCE: 'plant-store',
      WEBHOOK_URL: 'https://hooks.example.com/plants',
      WEBHOOK_SECRET_PARAMETER: '/plant-store/check/webhook-secret',
      AWS_REGION: 'eu-west-1',
    });
    expect(said).toContain(
      "The SSM parameter /plant-store/check/webhook-secret is not in eu-west-1, the stack's region: create it there (aws ssm put-parameter --region eu-west-1 ...)",
    );
    expect(said).not.toMatch(/Packaging/);
    // an account of 1000 (the quota a team asks for) holds the stage
    expect(said).not.toContain('Lambda concurrency');
    expect(asked.at(-1)).toEqual({
      target: 'AmazonSSM.DescribeParameters',
      region: 'eu-west-1',
      input: {
        ParameterFilters: [
          { Key: 'Name', Option: 'Equals', Values: ['/plant-store/check/webhook-secret'] },
        ],
      },
    });
  });
});

describe("the account's Lambda concurrency", () => {
  const { custom } = yamlOf('serverless.yml');
  // the two delivery lanes' batches, the fan-out's per shard, one of every other function:
  // each route, unmatchedRoute and keepFailedStreamRecords
  const needed =
    2 * custom.deliveryConcurrency + custom.streamParallelization + ROUTE_NAMES.length + 2;

  it("stops a deploy to an account whose quota is a new account's 10, naming the numbers and how to raise it", async () => {
    quota = 10;
    const said = await deploy({
      AUTH_ISSUER: 'https://issuer.example.com/',
      AUTH_AUDIENCE: 'plant-store',
      AWS_REGION: 'eu-west-1',
    });
    quota = 1000;
    expect(said).toContain(
      `The account's Lambda concurrency in eu-west-1 is 10 (10 unreserved), and the stage takes up to ${needed} concurrent executions (its queues' maximumConcurrency, its streams' parallelizationFactor, one for each other function: serverless.yml's custom.deliveryConcurrency and custom.streamParallelization). Raise the quota "Concurrent executions" (L-B99A9384) in the Service Quotas console, or: aws service-quotas request-service-quota-increase --region eu-west-1 --service-code lambda --quota-code L-B99A9384 --desired-value 1000`,
    );
    expect(said).not.toMatch(/Packaging/);
    expect(lambdaAsked.at(-1)).toMatchObject({
      target: 'GET /2016-08-19/account-settings',
      region: 'eu-west-1',
    });
  });

  it("counts the operator's webhook's too, in a stage with a receiver", async () => {
    quota = 10;
    held = ['/plant-store/check/webhook-secret'];
    const said = await deploy({
      AUTH_ISSUER: 'https://issuer.example.com/',
      AUTH_AUDIENCE: 'plant-store',
      WEBHOOK_URL: 'https://hooks.example.com/plants',
      WEBHOOK_SECRET_PARAMETER: '/plant-store/check/webhook-secret',
    });
    quota = 1000;
    // its retry queue's batches and its stream's
    const withWebhook = needed + custom.deliveryConcurrency + custom.streamParallelization;
    expect(said).toContain(
      `is 10 (10 unreserved), and the stage takes up to ${withWebhook} concurrent executions`,
    );
    expect(said).not.toContain('SSM parameter');
  });

  it('passes an account whose unreserved concurrency is what the stage takes, and no less', async () => {
    const client = new LambdaClient({
      region: 'eu-west-1',
      endpoint: lambda.endpoint,
      credentials: { accessKeyId: 'check', secretAccessKey: 'check' },
    });
    const functions = {
      lane: { events: [{ sqs: { maximumConcurrency: 6 } }, { sqs: { maximumConcurrency: 2 } }] },
      route: { events: [] },
      fanOut: { events: [{ stream: {} }] },
    };
    quota = 10;
    expect(await concurrencyProblem(client, functions, 'eu-west-1')).toBeUndefined();
    quota = 9;
    expect(await concurrencyProblem(client, functions, 'eu-west-1')).toMatch(
      /^The account's Lambda concurrency in eu-west-1 is 9 \(9 unreserved\), and the stage takes up to 10 concurrent executions \(/,
    );
    quota = 1000;
  });
});

describe("the secret's parameter", () => {
  const client = () =>
    new SSMClient({
      region: 'eu-west-1',
      endpoint: ssmEndpoint,
      credentials: { accessKeyId: 'check', secretAccessKey: 'check' },
    });

  it('passes when the region holds it', async () => {
    held = ['/plant-store/prod/webhook-secret'];
    expect(
      await secretParameterProblem(client(), '/plant-store/prod/webhook-secret', 'eu-west-1'),
    ).toBeUndefined();
  });

  it('says what to do when it does not', async () => {
    held = [];
    expect(
      await secretParameterProblem(client(), '/plant-store/prod/webhook-secret', 'eu-west-1'),
    ).toMatch(/is not in eu-west-1, the stack's region: create it there/);
  });
});
