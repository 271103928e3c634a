// What a stage's deploy makes and calls, as CloudFormation and the scripts make and call it: its
// resources' physical names in a region, every call of their handlers and of the scripts with the
// resource it acts on and the condition keys IAM sees; infra/deploy-role.yml resolved for a stage.
// The IAM decisions themselves are iam-simulate's (test/e2e/deployerPolicy.test.ts).
import { createHash } from 'node:crypto';
import { cloudFormationYaml } from './cloudFormationYaml.ts';

export const ACCOUNT = '123456789012';
export const REPOSITORY = 'octo-org/plant-store';

/** Where a stage is deployed. */
export interface Place {
  stage: string;
  region: string;
}
interface Resource {
  Type: string;
  Properties: Record<string, unknown>;
  DeletionPolicy?: string;
}
export interface Template {
  Resources: Record<string, Resource>;
}
export interface Statement {
  Sid?: string;
  Effect: 'Allow' | 'Deny';
  Action: string | string[];
  Resource: string | string[];
  Condition?: Record<string, Record<string, string | string[]>>;
}
export interface Policy {
  Version?: string;
  Statement: Statement[];
}
/** One call an AWS principal makes: its action, on what, with which condition keys. */
export interface Need {
  action: string;
  resource: string;
  context?: Record<string, string | string[]>;
  by: string;
}
export const list = (value: string | string[]) => (Array.isArray(value) ? value : [value]);

// --- CloudFormation's intrinsic functions, resolved for one stage's names ---

type Value = unknown;
export interface Names {
  refs: Record<string, string>;
  atts: Record<string, Record<string, string>>;
  conditions?: Record<string, boolean>;
  place: Place;
}
/** AWS::NoValue: the list item it stands for is left out. */
const NO_VALUE = Symbol('AWS::NoValue');
export const resolve = (value: Value, names: Names): Value => {
  if (Array.isArray(value))
    return value.map((item) => resolve(item, names)).filter((item) => item !== NO_VALUE);
  if (typeof value !== 'object' || value === null) return value;
  const [[fn, arg] = []] = Object.entries(value);
  const known = (found: string | undefined, what: string) => {
    if (found === undefined) throw new Error(`the test cannot resolve ${what}`);
    return found;
  };
  const sub = (text: string, vars: Record<string, Value> = {}) =>
    text.replace(/\$\{([^}]+)\}/g, (_, name: string) => {
      if (name in vars) return String(resolve(vars[name], names));
      const [id = '', att] = name.split('.');
      return att ? known(names.atts[id]?.[att], name) : known(names.refs[id], name);
    });
  switch (fn) {
    case 'Ref':
      return arg === 'AWS::NoValue' ? NO_VALUE : known(names.refs[String(arg)], `Ref ${arg}`);
    case 'Fn::ImportValue':
      return known(names.refs[String(arg)], `ImportValue ${arg}`);
    case 'Fn::GetAtt': {
      const [id, att] = arg as [string, string];
      return known(names.atts[id]?.[att], `GetAtt ${id}.${att}`);
    }
    case 'Fn::Join': {
      const [separator, items] = arg as [string, Value[]];
      return items.map((item) => resolve(item, names)).join(separator);
    }
    case 'Fn::Sub':
      return Array.isArray(arg)
        ? sub(arg[0] as string, arg[1] as Record<string, Value>)
        : sub(arg as string);
    case 'Fn::If': {
      const [condition, then, otherwise] = arg as [string, Value, Value];
      return resolve(names.conditions?.[condition] ? then : otherwise, names);
    }
    default:
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) => [key, resolve(item, names)]),
      );
  }
};

// --- infra/deploy-role.yml for a stage ---

const roleTemplate = cloudFormationYaml<
  Template & { Parameters: { Stage: { AllowedPattern: string } } }
>('infra/deploy-role.yml');
export const STAGE_RULE = new RegExp(roleTemplate.Parameters.Stage.AllowedPattern);
const pseudo = (region: string): Record<string, string> => ({
  'AWS::Partition': 'aws',
  'AWS::Region': region,
  'AWS::AccountId': ACCOUNT,
});
export const GITHUB_OIDC_PROVIDER = `arn:aws:iam::${ACCOUNT}:oidc-provider/token.actions.githubusercontent.com`;

/** The deploy role's policy, trust and boundary as the template makes them for a stage in a region. */
export const deployRole = (
  place: Place,
  { fromGitHub = true, httpApiId = '' }: { fromGitHub?: boolean; httpApiId?: string } = {},
) => {
  const { Boundary, DeployRole } = roleTemplate.Resources;
  if (!Boundary || !DeployRole)
    throw new Error('infra/deploy-role.yml lost Boundary or DeployRole');
  const refs: Record<string, string> = {
    ...pseudo(place.region),
    Stage: place.stage,
    GitHubRepository: REPOSITORY,
    GitHubOidcProviderArn: '',
    HttpApiId: httpApiId,
    // the stack plant-store-github-oidc's export (infra/github-oidc.yml)
    'plant-store-github-oidc': GITHUB_OIDC_PROVIDER,
  };
  const boundaryName = resolve(Boundary.Properties.ManagedPolicyName, { refs, atts: {}, place });
  const names: Names = {
    refs: { ...refs, Boundary: `arn:aws:iam::${ACCOUNT}:policy/${boundaryName}` },
    atts: {},
    conditions: {
      FromGitHub: fromGitHub,
      ImportGitHubOidcProvider: true,
      HttpApiPinned: httpApiId !== '',
    },
    place,
  };
  const role = resolve(DeployRole.Properties, names) as {
    AssumeRolePolicyDocument: Policy;
    Policies: { PolicyDocument: Policy }[];
  };
  const [inline] = role.Policies;
  if (!inline) throw new Error('the deploy role has no policy');
  return {
    policy: inline.PolicyDocument,
    trust: role.AssumeRolePolicyDocument,
    boundary: resolve(Boundary.Properties.PolicyDocument, names) as Policy,
    boundaryArn: names.refs.Boundary,
  };
};

// --- the packaged template of a stage: its resources' physical names, as a deploy would make them ---

export const arn = (service: string, region: string, resource: string) =>
  `arn:aws:${service}:${region}:${ACCOUNT}:${resource}`;
export const stackArn = ({ stage, region }: Place, suffix = '') =>
  arn(
    'cloudformation',
    region,
    `stack/plant-store-${stage}${suffix}/0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0`,
  );
/** Each stage's HTTP API id, as API Gateway would make it: ten letters and digits, its own. */
export const apiIdOf = (stage: string) =>
  createHash('sha256').update(stage).digest('hex').slice(0, 10);

/** The names CloudFormation gives each resource of the stack in its region (generated where none is set). */
export const physicalNames = (template: Template, place: Place): Names => {
  const { stage, region } = place;
  const API_ID = apiIdOf(stage);
  const refs: Record<string, string> = pseudo(region);
  const atts: Names['atts'] = {};
  // CloudFormation's own: the stack, the logical id and 12 random characters (up to 13 seen)
  const generated = (id: string) => `plant-store-${stage}-${id}-A1B2C3D4E5F6G`;
  // roles, then functions, first: a function names its role, a version its function
  const rank = ({ Type }: Resource) =>
    ['AWS::IAM::Role', 'AWS::Lambda::Function'].indexOf(Type) >>> 0;
  const ordered = Object.entries(template.Resources).sort(([, a], [, b]) => rank(a) - rank(b));
  for (const [id, { Type, Properties }] of ordered) {
    const named = (property: string) =>
      String(resolve(Properties[property], { refs, atts, place }));
    switch (Type) {
      case 'AWS::DynamoDB::Table': {
        const table = arn('dynamodb', region, `table/${named('TableName')}`);
        refs[id] = named('TableName');
        atts[id] = { Arn: table, StreamArn: `${table}/stream/2026-11-27T00:00:00.000` };
        break;
      }
      case 'AWS::SQS::Queue': {
        const name = Properties.QueueName ? named('QueueName') : generated(id);
        refs[id] = `https://sqs.${region}.amazonaws.com/${ACCOUNT}/${name}`;
        atts[id] = { Arn: arn('sqs', region, name), QueueName: name };
        break;
      }
      case 'AWS::IAM::Role':
        refs[id] = named('RoleName');
        atts[id] = { Arn: `arn:aws:iam::${ACCOUNT}:role/${named('RoleName')}` };
        break;
      case 'AWS::Lambda::Function':
        refs[id] = named('FunctionName');
        atts[id] = { Arn: arn('lambda', region, `function:${named('FunctionName')}`) };
        break;
      case 'AWS::Lambda::Version':
        refs[id] = `${arn('lambda', region, `function:${named('FunctionName')}`)}:1`;
        break;
      case 'AWS::Lambda::EventSourceMapping':
        refs[id] = '6f5e4d3c-2b1a-0987-6543-210fedcba987';
        break;
      case 'AWS::S3::Bucket':
        refs[id] = generated(id).toLowerCase();
        atts[id] = { Arn: `arn:aws:s3:::${refs[id]}` };
        break;
      case 'AWS::CloudWatch::Alarm':
        refs[id] = named('AlarmName');
        atts[id] = { Arn: arn('cloudwatch', region, `alarm:${named('AlarmName')}`) };
        break;
      // global: no region in its ARN
      case 'AWS::CloudWatch::Dashboard':
        refs[id] = named('DashboardName');
        atts[id] = { Arn: arn('cloudwatch', '', `dashboard/${named('DashboardName')}`) };
        break;
      case 'AWS::ApiGatewayV2::Api':
        refs[id] = API_ID;
        atts[id] = { ApiEndpoint: `https://${API_ID}.execute-api.${region}.amazonaws.com` };
        break;
      default:
        refs[id] = `${id.toLowerCase().slice(0, 7)}`;
    }
  }
  return { refs, atts, place };
};

// --- what CloudFormation needs of the caller for each resource type ---

/**
 * Each resource type's handler permissions (its CloudFormation resource schema's
 * handlers.create/read/update/delete.permissions, and tagging.permissions: a stack's tags reach
 * every resource), less those of features the template never sets, named beside each type; those
 * of a configuration only some resources of the type set, under `properties`, needed by those only.
 */
type Operation = 'create' | 'read' | 'update' | 'delete';
export interface Handlers extends Record<Operation, string[]> {
  tagging?: string[];
  properties?: Record<string, Partial<Record<Operation, string[]>>>;
}
export const HANDLERS: Record<string, Handlers> = {
  // less kms:*, kinesis:*, s3:* and logs:* (KMS keys, Kinesis destinations, ImportSourceSpecification),
  // dynamodb:*ResourcePolicy writes (ResourcePolicy), iam:CreateServiceLinkedRole (replicas)
  'AWS::DynamoDB::Table': {
    create: [
      'dynamodb:CreateTable',
      'dynamodb:DescribeTable',
      'dynamodb:DescribeTimeToLive',
      'dynamodb:UpdateTimeToLive',
      'dynamodb:UpdateContributorInsights',
      'dynamodb:UpdateContinuousBackups',
      'dynamodb:DescribeContinuousBackups',
      'dynamodb:DescribeContributorInsights',
      'dynamodb:DescribeKinesisStreamingDestination',
      'dynamodb:ListTagsOfResource',
      'dynamodb:TagResource',
      'dynamodb:UpdateTable',
      'dynamodb:GetResourcePolicy',
    ],
    // also what ImportExistingResources reads to adopt a table a removed stage kept
    read: [
      'dynamodb:DescribeTable',
      'dynamodb:DescribeContinuousBackups',
      'dynamodb:DescribeContributorInsights',
      'dynamodb:DescribeKinesisStreamingDestination',
      'dynamodb:ListTagsOfResource',
      'dynamodb:GetResourcePolicy',
    ],
    update: [
      'dynamodb:UpdateTable',
      'dynamodb:DescribeTable',
      'dynamodb:DescribeTimeToLive',
      'dynamodb:UpdateTimeToLive',
      'dynamodb:UpdateContinuousBackups',
      'dynamodb:UpdateContributorInsights',
      'dynamodb:DescribeContinuousBackups',
      'dynamodb:DescribeKinesisStreamingDestination',
      'dynamodb:ListTagsOfResource',
      'dynamodb:TagResource',
      'dynamodb:UntagResource',
      'dynamodb:DescribeContributorInsights',
      'dynamodb:GetResourcePolicy',
    ],
    delete: ['dynamodb:DeleteTable', 'dynamodb:DescribeTable'],
  },
  // less ec2:* and elasticfilesystem:* (VpcConfig, FileSystemConfigs), kms:* (KmsKeyArn), the code
  // signing config and layer reads, s3:GetObjectVersion (S3ObjectVersion), and the Put of runtime
  // management and recursion (RuntimeManagementConfig, RecursiveLoop)
  'AWS::Lambda::Function': {
    create: [
      'lambda:CreateFunction',
      'lambda:GetFunction',
      'lambda:PutFunctionConcurrency',
      'iam:PassRole',
      's3:GetObject',
      'lambda:GetFunctionCodeSigningConfig',
      'lambda:GetRuntimeManagementConfig',
      'lambda:TagResource',
      'lambda:GetFunctionRecursionConfig',
    ],
    read: [
      'lambda:GetFunction',
      'lambda:GetFunctionCodeSigningConfig',
      'lambda:GetFunctionRecursionConfig',
      'lambda:GetRuntimeManagementConfig',
    ],
    update: [
      'lambda:DeleteFunctionConcurrency',
      'lambda:GetFunction',
      'lambda:PutFunctionConcurrency',
      'lambda:TagResource',
      'lambda:UntagResource',
      'lambda:UpdateFunctionConfiguration',
      'lambda:UpdateFunctionCode',
      'iam:PassRole',
      's3:GetObject',
      'lambda:GetRuntimeManagementConfig',
      'lambda:GetFunctionCodeSigningConfig',
      'lambda:GetFunctionRecursionConfig',
    ],
    delete: ['lambda:DeleteFunction', 'lambda:GetFunction'],
    tagging: ['lambda:ListTags', 'lambda:TagResource', 'lambda:UntagResource'],
  },
  // less the Puts of ProvisionedConcurrencyConfig, RuntimePolicy and FunctionScalingConfig
  'AWS::Lambda::Version': {
    create: [
      'lambda:PublishVersion',
      'lambda:GetFunctionConfiguration',
      'lambda:GetProvisionedConcurrencyConfig',
      'lambda:GetRuntimeManagementConfig',
      'lambda:ListVersionsByFunction',
    ],
    read: [
      'lambda:GetFunctionConfiguration',
      'lambda:GetProvisionedConcurrencyConfig',
      'lambda:GetRuntimeManagementConfig',
      'lambda:GetFunctionScalingConfig',
    ],
    update: ['lambda:GetFunctionConfiguration'],
    delete: ['lambda:GetFunctionConfiguration', 'lambda:DeleteFunction'],
  },
  'AWS::Lambda::Permission': {
    create: ['lambda:AddPermission'],
    read: ['lambda:GetPolicy'],
    update: [],
    delete: ['lambda:RemovePermission'],
  },
  // less kms:* (KmsKeyArn of a filter)
  'AWS::Lambda::EventSourceMapping': {
    create: [
      'lambda:CreateEventSourceMapping',
      'lambda:GetEventSourceMapping',
      'lambda:TagResource',
    ],
    read: ['lambda:GetEventSourceMapping', 'lambda:ListTags'],
    update: [
      'lambda:UpdateEventSourceMapping',
      'lambda:GetEventSourceMapping',
      'lambda:TagResource',
      'lambda:UntagResource',
    ],
    delete: ['lambda:DeleteEventSourceMapping', 'lambda:GetEventSourceMapping'],
  },
  // less iam:DeleteRolePermissionsBoundary and iam:UpdateAssumeRolePolicy, which the role denies: no
  // role loses the boundary, and a function's trust (lambda.amazonaws.com) never changes
  'AWS::IAM::Role': {
    create: [
      'iam:CreateRole',
      'iam:PutRolePolicy',
      'iam:AttachRolePolicy',
      'iam:GetRolePolicy',
      'iam:TagRole',
      'iam:UntagRole',
    ],
    read: [
      'iam:GetRole',
      'iam:ListAttachedRolePolicies',
      'iam:ListRolePolicies',
      'iam:GetRolePolicy',
    ],
    update: [
      'iam:UpdateRole',
      'iam:UpdateRoleDescription',
      'iam:DetachRolePolicy',
      'iam:AttachRolePolicy',
      'iam:PutRolePermissionsBoundary',
      'iam:DeleteRolePolicy',
      'iam:PutRolePolicy',
      'iam:TagRole',
      'iam:UntagRole',
    ],
    delete: [
      'iam:DeleteRole',
      'iam:DetachRolePolicy',
      'iam:DeleteRolePolicy',
      'iam:GetRole',
      'iam:ListAttachedRolePolicies',
      'iam:ListRolePolicies',
      'iam:TagRole',
      'iam:UntagRole',
    ],
  },
  'AWS::SQS::Queue': {
    create: [
      'sqs:CreateQueue',
      'sqs:GetQueueUrl',
      'sqs:GetQueueAttributes',
      'sqs:ListQueueTags',
      'sqs:TagQueue',
    ],
    read: ['sqs:GetQueueAttributes', 'sqs:ListQueueTags'],
    update: [
      'sqs:SetQueueAttributes',
      'sqs:GetQueueAttributes',
      'sqs:ListQueueTags',
      'sqs:TagQueue',
      'sqs:UntagQueue',
    ],
    delete: ['sqs:DeleteQueue', 'sqs:GetQueueAttributes'],
  },
  // less the data protection policy's Put, log delivery, resource policies, firehose and s3
  // (DataProtectionPolicy, a delivery destination) and KMS keys (KmsKeyId)
  'AWS::Logs::LogGroup': {
    create: [
      'logs:DescribeLogGroups',
      'logs:CreateLogGroup',
      'logs:PutRetentionPolicy',
      'logs:TagLogGroup',
      'logs:GetDataProtectionPolicy',
    ],
    read: ['logs:DescribeLogGroups', 'logs:ListTagsLogGroup', 'logs:GetDataProtectionPolicy'],
    update: [
      'logs:DescribeLogGroups',
      'logs:PutRetentionPolicy',
      'logs:DeleteRetentionPolicy',
      'logs:TagLogGroup',
      'logs:UntagLogGroup',
      'logs:GetDataProtectionPolicy',
    ],
    delete: ['logs:DescribeLogGroups', 'logs:DeleteLogGroup', 'logs:DeleteDataProtectionPolicy'],
    tagging: [
      'logs:TagLogGroup',
      'logs:UntagLogGroup',
      'logs:ListTagsLogGroup',
      'logs:TagResource',
      'logs:UntagResource',
      'logs:ListTagsForResource',
    ],
  },
  'AWS::CloudWatch::Alarm': {
    create: ['cloudwatch:PutMetricAlarm', 'cloudwatch:DescribeAlarms', 'cloudwatch:TagResource'],
    read: ['cloudwatch:DescribeAlarms', 'cloudwatch:ListTagsForResource'],
    update: [
      'cloudwatch:PutMetricAlarm',
      'cloudwatch:DescribeAlarms',
      'cloudwatch:TagResource',
      'cloudwatch:UntagResource',
    ],
    delete: ['cloudwatch:DeleteAlarms', 'cloudwatch:DescribeAlarms'],
  },
  'AWS::CloudWatch::Dashboard': {
    create: ['cloudwatch:GetDashboard', 'cloudwatch:PutDashboard'],
    read: ['cloudwatch:GetDashboard'],
    update: ['cloudwatch:PutDashboard'],
    delete: ['cloudwatch:DeleteDashboards', 'cloudwatch:GetDashboard'],
  },
  // less s3:GetObject (BodyS3Location)
  'AWS::ApiGatewayV2::Api': {
    create: ['apigateway:POST', 'apigateway:PUT'],
    read: ['apigateway:GET'],
    update: [
      'apigateway:PATCH',
      'apigateway:GET',
      'apigateway:PUT',
      'apigateway:POST',
      'apigateway:DELETE',
    ],
    delete: ['apigateway:GET', 'apigateway:DELETE'],
    tagging: ['apigateway:GET', 'apigateway:PUT', 'apigateway:PATCH', 'apigateway:DELETE'],
  },
  // its schema has no handlers (CloudFormation's own provisioning): the calls of CreateStage,
  // GetStage, UpdateStage, DeleteStage
  'AWS::ApiGatewayV2::Stage': {
    create: ['apigateway:POST'],
    read: ['apigateway:GET'],
    update: ['apigateway:PATCH'],
    delete: ['apigateway:DELETE'],
  },
  'AWS::ApiGatewayV2::Route': {
    create: ['apigateway:POST'],
    read: ['apigateway:GET'],
    update: ['apigateway:PATCH', 'apigateway:GET', 'apigateway:PUT'],
    delete: ['apigateway:GET', 'apigateway:DELETE'],
  },
  // less iam:PassRole (CredentialsArn)
  'AWS::ApiGatewayV2::Integration': {
    create: ['apigateway:POST'],
    read: ['apigateway:GET'],
    update: ['apigateway:PATCH', 'apigateway:GET', 'apigateway:PUT'],
    delete: ['apigateway:GET', 'apigateway:DELETE'],
  },
  // the schema of cfn-lint's copy (src/cfnlint/data/schemas/providers/us_east_1/aws-s3-bucket.json,
  // commit 06cb246): the configurations a bucket of the stack sets (the deployment bucket only
  // BucketEncryption), each for the buckets setting it; less every other configuration's Put, Get
  // and Delete, the Deletes of those set (a property dropped), ACLs and iam:PassRole (replication)
  'AWS::S3::Bucket': {
    create: ['s3:CreateBucket', 's3:PutBucketTagging'],
    read: ['s3:GetBucketTagging', 's3:ListBucket'],
    update: ['s3:PutBucketTagging'],
    delete: ['s3:DeleteBucket'],
    properties: {
      BucketEncryption: {
        create: ['s3:PutEncryptionConfiguration'],
        read: ['s3:GetEncryptionConfiguration'],
        update: ['s3:PutEncryptionConfiguration'],
      },
      PublicAccessBlockConfiguration: {
        create: ['s3:PutBucketPublicAccessBlock'],
        read: ['s3:GetBucketPublicAccessBlock'],
        update: ['s3:PutBucketPublicAccessBlock'],
      },
      LifecycleConfiguration: {
        create: ['s3:PutLifecycleConfiguration'],
        read: ['s3:GetLifecycleConfiguration'],
        update: ['s3:PutLifecycleConfiguration'],
      },
      NotificationConfiguration: {
        create: ['s3:PutBucketNotification'],
        read: ['s3:GetBucketNotification'],
        update: ['s3:PutBucketNotification'],
      },
    },
  },
  'AWS::S3::BucketPolicy': {
    create: ['s3:GetBucketPolicy', 's3:PutBucketPolicy'],
    read: ['s3:GetBucketPolicy'],
    update: ['s3:GetBucketPolicy', 's3:PutBucketPolicy'],
    delete: ['s3:GetBucketPolicy', 's3:DeleteBucketPolicy'],
  },
  // cfn-lint's copy (aws-sqs-queuepolicy.json, commit 0f7ff9a): no read handler
  'AWS::SQS::QueuePolicy': {
    create: ['sqs:SetQueueAttributes'],
    read: [],
    update: ['sqs:SetQueueAttributes'],
    delete: ['sqs:SetQueueAttributes'],
  },
};

export const apiPath = (region: string, path: string) =>
  `arn:aws:apigateway:${region}::/apis${path}`;

/** What `action` of the handlers of `id` acts on, and the condition keys IAM sees with it. */
const target = (
  action: string,
  operation: Operation | 'tagging',
  id: string,
  { Type, Properties }: Resource,
  names: Names,
): Pick<Need, 'resource' | 'context'> => {
  const props = resolve(Properties, names) as Record<string, unknown>;
  const own = names.atts[id]?.Arn;
  const { stage, region } = names.place;
  const API_ID = apiIdOf(stage);
  const api = (path: string) => apiPath(region, `/${API_ID}${path}`);
  // an API, its stage and a mapping carry their tags (STAGE); a route or an integration can't
  const tagged = { 'aws:ResourceTag/STAGE': stage };
  const fn = (name: unknown) =>
    String(name).startsWith('arn:') ? String(name) : arn('lambda', region, `function:${name}`);
  switch (Type) {
    case 'AWS::Lambda::Function': {
      const code = props.Code as { S3Bucket: string; S3Key: string };
      if (action === 'iam:PassRole')
        return {
          resource: String(props.Role),
          context: { 'iam:PassedToService': 'lambda.amazonaws.com' },
        };
      if (action === 's3:GetObject')
        return { resource: `arn:aws:s3:::${code.S3Bucket}/${code.S3Key}` };
      return { resource: String(own) };
    }
    // a version's reads and its deletion act on the version itself; its publication on the function
    case 'AWS::Lambda::Version':
      return {
        resource: ['lambda:PublishVersion', 'lambda:ListVersionsByFunction'].includes(action)
          ? fn(props.FunctionName)
          : String(names.refs[id]),
      };
    case 'AWS::Lambda::Permission':
      return { resource: fn(props.FunctionName) };
    case 'AWS::Lambda::EventSourceMapping':
      return {
        resource:
          action === 'lambda:CreateEventSourceMapping'
            ? '*'
            : arn('lambda', region, `event-source-mapping:${names.refs[id]}`),
        // a mapping carries the stack's tags (STAGE) once made
        context: {
          'lambda:FunctionArn': fn(props.FunctionName),
          ...(action === 'lambda:CreateEventSourceMapping' ? {} : tagged),
        },
      };
    case 'AWS::IAM::Role':
      return {
        resource: String(own),
        context: { 'iam:PermissionsBoundary': String(props.PermissionsBoundary) },
      };
    case 'AWS::Logs::LogGroup':
      return {
        resource:
          action === 'logs:DescribeLogGroups'
            ? '*'
            : arn('logs', region, `log-group:${props.LogGroupName}`),
      };
    case 'AWS::CloudWatch::Alarm':
      return { resource: arn('cloudwatch', region, `alarm:${props.AlarmName}`) };
    case 'AWS::ApiGatewayV2::Api':
      if (operation === 'create')
        return {
          resource: apiPath(region, ''),
          context: { 'aws:RequestTag/STAGE': stage, 'aws:TagKeys': ['STAGE'] },
        };
      if (operation === 'tagging')
        return {
          resource: `arn:aws:apigateway:${region}::/tags/${encodeURIComponent(api(''))}`,
          // the stack's own tags, STAGE unchanged: a team's other tag comes and goes
          context: {
            ...tagged,
            ...(action === 'apigateway:DELETE'
              ? { 'aws:TagKeys': ['team'] }
              : { 'aws:RequestTag/STAGE': stage, 'aws:TagKeys': ['STAGE', 'team'] }),
          },
        };
      return { resource: api(''), context: tagged };
    case 'AWS::ApiGatewayV2::Stage':
      return {
        resource: api(`/stages${operation === 'create' ? '' : `/${props.StageName}`}`),
        context: operation === 'create' ? { 'aws:RequestTag/STAGE': stage } : tagged,
      };
    case 'AWS::ApiGatewayV2::Route':
      return { resource: api(`/routes${operation === 'create' ? '' : '/r1s2t3'}`) };
    case 'AWS::ApiGatewayV2::Integration':
      return { resource: api(`/integrations${operation === 'create' ? '' : '/i1j2k3'}`) };
    case 'AWS::S3::BucketPolicy':
      return { resource: `arn:aws:s3:::${props.Bucket}` };
    // its queues by their URLs (the stack's: one each)
    case 'AWS::SQS::QueuePolicy': {
      const [url = ''] = props.Queues as string[];
      return { resource: arn('sqs', region, String(url.split('/').pop())) };
    }
    default:
      if (!own) throw new Error(`the test knows no ARN of ${id} (${Type})`);
      return { resource: own };
  }
};

/** Every call CloudFormation makes as the deploy role to create, read, update and delete the stack. */
export const resourceNeeds = (template: Template, names: Names): Need[] =>
  Object.entries(template.Resources).flatMap(([id, resource]) => {
    const found = HANDLERS[resource.Type];
    if (!found) throw new Error(`no handler permissions for ${resource.Type} (${id}): add them`);
    const { properties = {}, ...handlers } = found;
    const set = Object.keys(properties).filter((name) => name in resource.Properties);
    return (Object.entries(handlers) as [Operation | 'tagging', string[]][]).flatMap(
      ([operation, own]) =>
        [
          ...own,
          ...set.flatMap(
            (name) => (operation === 'tagging' ? [] : properties[name]?.[operation]) ?? [],
          ),
        ].map((action) => ({
          action,
          ...target(action, operation, id, resource, names),
          by: `${id} (${resource.Type}, ${operation})`,
        })),
    );
  });

/**
 * The calls beside the handlers': osls's own (the stack by change sets, the template's validation,
 * the code in the deployment bucket), the deploy's settings check, npm run smoke, and npm run
 * remove -- --delete-data (the kept tables, queues, buckets and webhook secret's parameter).
 */
export const scriptNeeds = (template: Template, names: Names): Need[] => {
  const { place } = names;
  const { stage, region } = place;
  const of = (type: string) =>
    Object.keys(template.Resources).filter((id) => template.Resources[id]?.Type === type);
  const bucket = `arn:aws:s3:::${names.refs.ServerlessDeploymentBucket}`;
  const keptBuckets = of('AWS::S3::Bucket')
    .filter((id) => template.Resources[id]?.DeletionPolicy === 'Retain')
    .map((id) => String(names.atts[id]?.Arn));
  const each = (by: string, actions: string[], resources: string[]) =>
    actions.flatMap((action) => resources.map((resource) => ({ action, resource, by })));
  return [
    ...each(
      'osls deploy and remove: the stack',
      [
        'cloudformation:CreateChangeSet',
        'cloudformation:DescribeChangeSet',
        'cloudformation:ExecuteChangeSet',
        'cloudformation:DeleteChangeSet',
        'cloudformation:DeleteStack',
        'cloudformation:DescribeStacks',
        'cloudformation:DescribeStackEvents',
        'cloudformation:DescribeStackResource',
        'cloudformation:ListStackResources',
        'cloudformation:GetTemplate',
        // the stack's tag (STAGE) on its creation
        'cloudformation:TagResource',
      ],
      [stackArn(place)],
    ),
    ...each('osls deploy: the template validated', ['cloudformation:ValidateTemplate'], ['*']),
    ...each('osls deploy and remove: the deployment bucket listed', ['s3:ListBucket'], [bucket]),
    ...each(
      'osls deploy and remove: the code and templates uploaded, compared, pruned',
      ['s3:PutObject', 's3:GetObject', 's3:DeleteObject'],
      [`${bucket}/serverless/plant-store/${stage}/1795791182085/createPlant.zip`],
    ),
    ...each(
      "the deploy's settings check: the webhook secret's parameter",
      ['ssm:DescribeParameters'],
      ['*'],
    ),
    ...each(
      'npm run smoke: the stack outputs',
      ['cloudformation:DescribeStacks'],
      [stackArn(place)],
    ),
    ...each(
      'npm run remove -- --delete-data: the kept tables',
      ['dynamodb:UpdateTable', 'dynamodb:DeleteTable', 'dynamodb:DescribeTable'],
      of('AWS::DynamoDB::Table').map((id) => String(names.atts[id]?.Arn)),
    ),
    ...each('npm run remove: the kept queues found by their prefix', ['sqs:ListQueues'], ['*']),
    ...each(
      'npm run remove -- --delete-data: the kept queues',
      ['sqs:DeleteQueue', 'sqs:GetQueueAttributes'],
      of('AWS::SQS::Queue').map((id) => String(names.atts[id]?.Arn)),
    ),
    ...each(
      'npm run remove: the kept buckets found by their prefix',
      ['s3:ListAllMyBuckets'],
      ['*'],
    ),
    ...each(
      'npm run remove -- --delete-data: the kept buckets listed and deleted',
      ['s3:ListBucket', 's3:DeleteBucket'],
      keptBuckets,
    ),
    ...each(
      'npm run remove -- --delete-data: the kept buckets emptied',
      ['s3:DeleteObject'],
      // Lambda's key of a batch given up: aws/lambda/<mapping>/<shard>/<date>/<time>-<id>
      keptBuckets.map(
        (kept) =>
          `${kept}/aws/lambda/6f5e4d3c-2b1a-0987-6543-210fedcba987/shardId-00000001/2026/11/29/2026-11-29T10.00.00-a1b2c3d4`,
      ),
    ),
    ...each(
      "npm run remove -- --delete-data: the webhook secret's parameter under /plant-store/<stage>/",
      ['ssm:DeleteParameter'],
      [arn('ssm', region, `parameter/plant-store/${stage}/webhook-secret`)],
    ),
    ...each(
      "the deploy's settings check: the stage's deploy role stack, in its region and another",
      ['cloudformation:DescribeStacks'],
      [
        stackArn(place, '-deploy-role'),
        stackArn(
          { stage, region: region === 'eu-west-1' ? 'us-west-2' : 'eu-west-1' },
          '-deploy-role',
        ),
      ],
    ),
    ...each(
      "the deploy's settings check: the account's Lambda quota",
      ['lambda:GetAccountSettings'],
      ['*'],
    ),
    ...each(
      'npm run remove -- --delete-data: a backup of each table first',
      ['dynamodb:CreateBackup'],
      of('AWS::DynamoDB::Table').map((id) => String(names.atts[id]?.Arn)),
    ),
    ...each(
      'npm run remove -- --delete-data: each backup waited for',
      ['dynamodb:DescribeBackup'],
      of('AWS::DynamoDB::Table').map(
        (id) => `${names.atts[id]?.Arn}/backup/01795791182085-a1b2c3d4`,
      ),
    ),
  ];
};
