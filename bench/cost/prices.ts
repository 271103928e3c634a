// Every price the cost model uses (us-east-1, arm64, on-demand, no free tier), and every figure it
// assumes rather than measures, each with its source and the day it was read.
//
// Read on 2026-11-26 from stored copies (no live web). The official aws.amazon.com pricing pages
// render their rate tables client-side, so their stored text often lacks the numbers; where that is
// so, `source` is still the official page and `note` names the page the number was checked on.

export interface Sourced {
  source: string;
  read: string;
  note?: string;
}

// usd for ONE `per` unit
export interface Price extends Sourced {
  usd: number;
  per: string;
}

const READ = '2026-11-26';
// the monthly bill's prices and assumptions, read a day later
const BILL_READ = '2026-11-27';
const DYNAMO_ON_DEMAND_DOC =
  'https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode.html';
const SQS_QUOTAS_DOC =
  'https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-limits.html';

export const PRICES = {
  apiGatewayRequest: {
    usd: 1.0 / 1e6,
    per: 'HTTP API request (each 512 KB of request or response counts as one; see ASSUMPTIONS)',
    source:
      'https://docs.aws.amazon.com/fr_fr/whitepapers/latest/best-practices-api-gateway-private-apis-integration/cost-optimization.html',
    read: READ,
    note:
      'AWS whitepaper (English text), Table 4: HTTP API us-east-1 first 300 million ' +
      'requests/month $1.00 per million, 300+ million $0.90; "HTTP APIs are metered in 512 KB ' +
      'increments". Official page https://aws.amazon.com/api-gateway/pricing/ (stored copy ' +
      'renders rates client-side).',
  },
  lambdaRequest: {
    usd: 0.2 / 1e6,
    per: 'Lambda invocation request',
    source: 'https://aws.amazon.com/lambda/pricing/',
    read: BILL_READ,
    note:
      'An older stored copy of the official page: "The monthly request price is $0.20 per 1 ' +
      'million requests and the free tier provides 1M requests per month" (the same for x86 ' +
      'and Arm; the free tier not counted).',
  },
  lambdaGbSecond: {
    usd: 0.0000133334,
    per: 'GB-second of arm64 duration (first tier: first 7.5 billion GB-s/month)',
    source: 'https://aws.amazon.com/lambda/pricing/',
    read: BILL_READ,
    note:
      "The official page's older stored copy gives x86 duration at $0.0000166667 a GB-s; the " +
      'AWS News Blog ' +
      '(https://aws.amazon.com/blogs/aws/aws-lambda-functions-powered-by-aws-graviton2-processor-run-your-functions-on-arm-and-get-up-to-34-better-price-performance/, ' +
      'updated 2023-06-19): "For functions using the Arm/Graviton2 architecture, duration ' +
      'charges are 20 percent lower than the current pricing for x86": $0.0000133334. Tiers ' +
      'per https://aws.amazon.com/blogs/compute/introducing-tiered-pricing-for-aws-lambda/ : ' +
      'the arm64 first tier is 0-7.5 billion GB-s.',
  },
  dynamoWriteRequestUnit: {
    usd: 0.625 / 1e6,
    per: 'on-demand write request unit (standard write of an item up to 1 KB)',
    source: 'https://aws.amazon.com/dynamodb/pricing/on-demand/',
    read: READ,
    note:
      'Price after the 50% on-demand throughput cut effective 1 November 2024. Stored official ' +
      'page defines the unit but shows no rate; $0.625 per million checked on ' +
      'https://airbyte.com/data-engineering-resources/dynamodb-pricing (dated July 21, 2025).',
  },
  dynamoReadRequestUnit: {
    usd: 0.125 / 1e6,
    per: 'on-demand read request unit (strongly consistent read up to 4 KB; eventual = 0.5 unit)',
    source: 'https://aws.amazon.com/dynamodb/pricing/on-demand/',
    read: READ,
    note:
      'After the November 2024 cut; $0.125 per million checked on ' +
      'https://airbyte.com/data-engineering-resources/dynamodb-pricing (dated July 21, 2025).',
  },
  sqsRequest: {
    usd: 0.4 / 1e6,
    per: 'standard queue request (each 64 KB chunk of a payload is one request), first 100 billion',
    source: 'https://www.factualminds.com/blog/amazon-sqs-pricing-64kb-rule-fifo-vs-standard/',
    read: READ,
    note:
      'Page dated 2026-06-13: standard $0.40 per million after the free million, 64 KB rule. ' +
      'Same figures on https://unanswered.io/guide/aws-sqs-pricing-and-cost-optimization. The ' +
      'official SQS pricing page was not found in the stored copies.',
  },
  logsIngestedGb: {
    usd: 0.5,
    per: 'GB of Lambda log data ingested into CloudWatch Logs Standard (vended logs, first 10 TB)',
    source: 'https://www.duckbillgroup.com/?p=9080',
    read: READ,
    note:
      'Since 1 May 2025 Lambda logs are billed as vended logs with volume tiers; the first ' +
      'tier equals the old flat $0.50/GB in us-east-1 (page: 60 TB/month drops from $30,000 to ' +
      '$12,500). Tiers after the first ($0.25 next 20 TB, $0.10 next 20 TB, $0.05 over 50 TB) ' +
      'are from memory and match that example. The AWS blog and CloudWatch pricing page were ' +
      'not found in the stored copies.',
  },
  customMetricMonth: {
    usd: 0.3,
    per: 'custom metric (metric name + dimension values) per month, first 10,000 metrics',
    source: 'https://c3x.dev/blog/aws-cloudwatch-metrics-cost/',
    read: READ,
    note:
      'Third-party page; $0.30/metric/month for the first 10k, each dimension combination is ' +
      'one metric. The stored official https://aws.amazon.com/cloudwatch/pricing/ gives only ' +
      "its free tier; AWS's own sample aws-samples/sample-cfm-tips-mcp " +
      "(services/cloudwatch_service.py, its fallback prices) has 'custom_metrics_per_metric': " +
      "0.30, 'standard_alarms_per_alarm': 0.10, 'storage_per_gb_month': 0.03 and " +
      "'dashboard_per_month': 3.00.",
  },
  dataTransferOutGb: {
    usd: 0.09,
    per: 'GB transferred out to the internet (first 10 TB/month tier)',
    source: 'https://unanswered.io/guide/aws-sqs-pricing-and-cost-optimization',
    read: READ,
    note:
      'Third-party: "Data transfer out starts at $0.09 per GB for the first 10 TB per month". ' +
      'API Gateway bills data out at EC2 data transfer rates (official API Gateway pricing ' +
      'page text); the EC2 on-demand data transfer table itself was not found in the stored ' +
      'copies, so $0.09 is also the best-known public figure from memory. Ignores the first ' +
      '100 GB free.',
  },
  // what a stage pays a month whatever its requests (bench/cost/monthly.ts), read on BILL_READ
  alarmMetricMonth: {
    usd: 0.1,
    per: 'CloudWatch alarm metric a month (standard resolution: a period of 60 s or more)',
    source: 'https://aws.amazon.com/cloudwatch/pricing/',
    read: BILL_READ,
    note:
      'The stored official page names the unit ("10 Alarm metrics (only applicable to Standard ' +
      'resolution alarms that list metrics directly ...)", its free tier, not counted here) ' +
      'but renders the rate client-side; $0.10 per alarm metric a month checked on ' +
      'https://c3x.dev/resources/aws/aws_cloudwatch_metric_alarm . An alarm on a metric math ' +
      'expression is billed per metric it reads (each MetricStat), the expression itself free: ' +
      'the rule as the official page states it from memory, not found verbatim in the stored ' +
      'copies.',
  },
  dynamoStorageGbMonth: {
    usd: 0.25,
    per: 'GB-month of DynamoDB table storage (Standard table class), indexes included',
    source: 'https://aws.amazon.com/dynamodb/pricing/',
    read: BILL_READ,
    note:
      'Stored official page: "DynamoDB charges per GB of disk space that your table consumes. ' +
      'The first 25 GB consumed per month is free, and prices start from $0.25 per GB-month ' +
      'thereafter." The free 25 GB are not counted.',
  },
  dynamoPitrGbMonth: {
    usd: 0.2,
    per: "GB-month of DynamoDB point-in-time recovery (continuous backups), on the table's size",
    source: 'https://aws.amazon.com/dynamodb/pricing/on-demand/',
    read: BILL_READ,
    note:
      'Stored official page shows no rate; $0.20 per GB-month "charged based on table size" ' +
      'checked on https://finops.com.py/services/dynamodb/backups . "the price is based on the ' +
      'size of table and local secondary indexes" (global ones not): ' +
      'https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Point-in-time-recovery.html',
  },
  logsStoredGbMonth: {
    usd: 0.03,
    per: 'GB-month of CloudWatch Logs kept (Standard log class, archival)',
    source: 'https://aws.amazon.com/cloudwatch/pricing/',
    read: BILL_READ,
    note:
      'Stored official page renders the rate client-side; "Storage: $0.03 per GB-month" ' +
      '(us-east-1, June 2026) checked on ' +
      'https://c3x.dev/blog/cloudwatch-logs-cost-optimization . CloudWatch keeps logs ' +
      'compressed (from memory): priced here on the bytes ingested, an upper bound.',
  },
  kmsKeyMonth: {
    usd: 1,
    per: 'KMS key of our own (customer managed) a month',
    source: 'https://aws.amazon.com/kms/pricing/',
    read: BILL_READ,
    note:
      'Stored official page: "Each AWS KMS key that you create in KMS costs $1/month"; "You ' +
      'are not charged for ... Creation and storage of AWS managed or AWS owned KMS keys" ' +
      '(requests to an AWS managed key are: $0.03 per 10,000 on ' +
      'https://www.wring.co/blog/aws-kms-pricing-guide)',
  },
  // X-Ray active tracing (issue 43), read on BILL_READ
  xrayTraceRecorded: {
    usd: 5 / 1e6,
    per: 'X-Ray trace recorded (a trace: one request, however many segments it holds)',
    source: 'https://aws.amazon.com/xray/pricing/',
    read: BILL_READ,
    note:
      'Stored official page (its German copy, https://aws.amazon.com/de/xray/pricing/): ' +
      '"aufgezeichnete Ablaufverfolgungen werden mit 5 USD pro Million in Rechnung gestellt ' +
      '(0,000005 USD pro Ablaufverfolgung)"; "Eine Ablaufverfolgung stellt eine Anforderung an ' +
      'Ihre Anwendung dar und kann mehrere Datenpunkte enthalten". The first 100,000 a month ' +
      'free, not counted.',
  },
  xrayTraceScanned: {
    usd: 0.5 / 1e6,
    per: 'X-Ray trace retrieved or scanned (a console view, a query)',
    source: 'https://aws.amazon.com/xray/pricing/',
    read: BILL_READ,
    note:
      'Same page: "abgerufene oder gescannte Ablaufverfolgungen werden mit 0,50 USD pro ' +
      'Million in Rechnung gestellt (0,0000005 USD pro Ablaufverfolgung)"; the first million a ' +
      'month free, not counted.',
  },
} as const satisfies Record<string, Price>;

export interface Assumption extends Sourced {
  value: number;
  unit: string;
  what: string;
}

// A realistic 36-char request id, as Lambda prints it.
const REQUEST_ID = '6bd29d4f-07f1-4e5c-8e5e-d8a2e3bcd9c0';

// Lambda's own lines per invocation in the Text log format (managed Node.js runtime). The REPORT
// line is tab-separated and ends with a tab; cold starts add "Init Duration: N ms\t" to it.
const PLATFORM_LINES_TEXT = [
  `START RequestId: ${REQUEST_ID} Version: $LATEST`,
  `END RequestId: ${REQUEST_ID}`,
  `REPORT RequestId: ${REQUEST_ID}\tDuration: 12.34 ms\tBilled Duration: 13 ms\t` +
    'Memory Size: 256 MB\tMax Memory Used: 88 MB\t',
] as const;

// Bytes of a set of log lines, each with its newline, as CloudWatch counts uncompressed bytes.
const bytesOf = (lines: readonly string[]): number =>
  lines.reduce((sum, line) => sum + Buffer.byteLength(`${line}\n`), 0);

export const ASSUMPTIONS = {
  fullVcpuMb: {
    value: 1769,
    unit: 'MB',
    what: 'memory that gives one full vCPU; CPU share is proportional to memory below it',
    source: 'http://docs.aws.amazon.com/lambda/latest/dg/resource-model.html',
    read: READ,
    note:
      '"At 1,769 MB, a function has the equivalent of one vCPU (one vCPU-second of credits per ' +
      'second)"; "Lambda allocates CPU power in proportion to the amount of memory ' +
      'configured". Also ' +
      'https://docs.aws.amazon.com/lambda/latest/operatorguide/computing-power.html.',
  },
  dynamoCallMs: {
    value: 5,
    unit: 'ms',
    what: 'mean time of one DynamoDB call from Lambda in the same region',
    source: DYNAMO_ON_DEMAND_DOC,
    read: READ,
    note:
      'AWS only promises "single-digit millisecond latency"; 5 ms is our choice inside that ' +
      'range (client round trip, not server-side latency). Replace with a measured value when ' +
      'available.',
  },
  dynamoCallP99Ms: {
    value: 20,
    unit: 'ms',
    what: 'p99 time of one DynamoDB call from Lambda in the same region',
    source: DYNAMO_ON_DEMAND_DOC,
    read: READ,
    note: 'No published p99 found; 20 ms is a choice (4x the mean), from memory of typical traces.',
  },
  sqsCallMs: {
    value: 10,
    unit: 'ms',
    what: 'mean time of one SQS SendMessage/SendMessageBatch call from Lambda in the same region',
    source: SQS_QUOTAS_DOC,
    read: READ,
    note: 'AWS publishes no SQS latency figure; 10 ms is from memory / a choice, not sourced.',
  },
  sqsCallP99Ms: {
    value: 40,
    unit: 'ms',
    what: 'p99 time of one SQS send call from Lambda in the same region',
    source: SQS_QUOTAS_DOC,
    read: READ,
    note: 'No published figure; 40 ms is a choice (4x the mean), not sourced.',
  },
  receiverMs: {
    value: 100,
    unit: 'ms',
    what: "a webhook receiver's answer time (the receiver's, not ours), billed while we wait",
    source: 'none: modelling choice',
    read: READ,
    note: 'A plain round figure chosen for the model, not a measurement or a published number.',
  },
  keySetFetchMs: {
    value: 100,
    unit: 'ms',
    what: "a cold start's one fetch of the IdP's JWKS over HTTPS (TLS + GET), e.g. Cognito",
    source: 'none: modelling choice',
    read: READ,
    note:
      'No source found in the stored copies; 100 ms (new TLS connection plus one request in ' +
      'region) is from memory. Charged once per cold start, so weighted by coldStartShare.',
  },
  coldStartShare: {
    value: 0.01,
    unit: 'share of invocations',
    what: 'share of invocations that are cold starts (INIT runs), used for cost only',
    source: 'https://aws.amazon.com/blogs/compute/aws-lambda-standardizes-billing-for-init-phase/',
    read: READ,
    note:
      '"According to an analysis of production Lambda workloads, INITs (cold starts) typically ' +
      'occur in under 1% of invocations" (AWS Compute Blog, read via a stored mirror); same ' +
      'claim in ' +
      'https://docs.aws.amazon.com/fr_fr/lambda/latest/operatorguide/execution-environments.html ' +
      '(English text). 1% is the upper bound, so the cost is pessimistic.',
  },
  initCpuBurst: {
    value: 1,
    unit: 'boolean',
    what: "1 = Lambda's INIT phase runs with burst CPU (a full vCPU) whatever the memory size",
    source: 'https://awslabs.github.io/aws-lambda-web-adapter/configuration/async-init.html',
    read: READ,
    note:
      '"Lambda managed runtimes offer up to 10 seconds for function initialization with burst ' +
      'CPU" (awslabs project docs, not the Lambda developer guide). Not contradicted in the ' +
      'stored copies; its "free init CPU burst" wording predates INIT billing (see initBilled).',
  },
  initBilled: {
    value: 1,
    unit: 'boolean',
    what: '1 = the INIT phase of on-demand ZIP functions on managed runtimes is billed as duration',
    source: 'https://aws.amazon.com/blogs/compute/aws-lambda-standardizes-billing-for-init-phase/',
    read: READ,
    note:
      '"Effective August 1, 2025, AWS will standardize billing for the initialization (INIT) ' +
      'phase ... on-demand invocations of Lambda functions packaged as ZIP files that use ' +
      'managed runtimes, for which the INIT phase duration was previously unbilled." Read via ' +
      'stored mirrors of the AWS Compute Blog post (April 2025).',
  },
  billingGranularityMs: {
    value: 1,
    unit: 'ms',
    what: 'Lambda duration is rounded up to the nearest 1 ms',
    source: 'https://aws.amazon.com/lambda/pricing/',
    read: READ,
    note: '"rounded up to the nearest 1 ms" (stored copy of the official pricing page).',
  },
  sqsChunkBytes: {
    value: 65_536,
    unit: 'bytes',
    what: "each 64 KB chunk of a request's payload is billed as one SQS request",
    source: 'https://www.factualminds.com/blog/amazon-sqs-pricing-64kb-rule-fifo-vs-standard/',
    read: READ,
    note: 'Page dated 2026-06-13: "a single 256 KB message counts as four requests".',
  },
  apiGatewayMeterBytes: {
    value: 524_288,
    unit: 'bytes',
    what: 'HTTP API requests are metered in 512 KB increments',
    source:
      'https://docs.aws.amazon.com/fr_fr/whitepapers/latest/best-practices-api-gateway-private-apis-integration/cost-optimization.html',
    read: READ,
    note: '"HTTP APIs are metered in 512 KB increments." (whitepaper, English text).',
  },
  platformLogBytes: {
    value: bytesOf(PLATFORM_LINES_TEXT),
    unit: 'bytes per invocation',
    what: 'bytes Lambda itself writes per warm invocation in Text format: START, END, REPORT',
    source: 'https://docs.aws.amazon.com/lambda/latest/dg/nodejs-logging.html',
    read: READ,
    note:
      'Derived from PLATFORM_LINES_TEXT (line format as on the Node.js logging page and the ' +
      'AWS News Blog 1 ms billing example). Cold starts add an Init Duration field; the ' +
      'Duration digits vary by a byte or two. With loggingConfig.systemLogLevel WARN Lambda ' +
      'sends none of them: "Lambda sends logs at that level and lower" ' +
      '(https://docs.aws.amazon.com/lambda/latest/dg/monitoring-cloudwatchlogs-log-level.html). ' +
      'CloudWatch bills the uncompressed bytes: the 26 bytes per event of PutLogEvents are a ' +
      'quota rule, not billed.',
  },
  hoursPerMonth: {
    value: 730,
    unit: 'hours',
    what: "a month's hours, as AWS's monthly prices count them (365 × 24 / 12)",
    source: 'none: arithmetic, as the AWS Pricing Calculator counts a month',
    read: BILL_READ,
  },
  sqsIdlePollers: {
    value: 5,
    unit: 'pollers',
    what: "Lambda's pollers long-polling each SQS event source's queue while it is empty",
    source: 'https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-scaling.html',
    read: BILL_READ,
    note:
      '"For standard queues, Lambda uses long polling to poll a queue until it becomes active. ' +
      'When messages are available, Lambda starts processing five batches at a time." The idle ' +
      'count itself is not published: five, the count it starts with, is our choice. Their empty ' +
      'receives are billed: "Even an unused queue generates empty receives and charges" ' +
      '(https://unanswered.io/guide/aws-sqs-pricing-and-cost-optimization).',
  },
  sqsLongPollSeconds: {
    value: 20,
    unit: 's',
    what: "each idle poller's wait: one ReceiveMessage per wait, SQS's longest",
    source:
      'https://docs.aws.amazon.com/AWSSimpleQueueService/latest/SQSDeveloperGuide/sqs-short-and-long-polling.html',
    read: BILL_READ,
    note: 'Long polling waits at most 20 seconds (WaitTimeSeconds); from memory of that page.',
  },
  xraySampledPerSecond: {
    value: 1,
    unit: 'traces a second',
    what: "X-Ray's default sampling rule's reservoir: the first request each second is traced",
    source:
      'https://github.com/awsdocs/aws-xray-developer-guide/blob/main/doc-source/xray-console-sampling.md',
    read: BILL_READ,
    note:
      '"By default, the X-Ray SDK records the first request each second, and five percent of ' +
      'any additional requests. One request per second is the reservoir"; Lambda applies this ' +
      "rule and it can't be changed for a function. Counted per function, an upper bound (the " +
      "reservoir may be the rule's, shared).",
  },
  xraySampledShare: {
    value: 0.05,
    unit: 'share',
    what: "X-Ray's default sampling rule's rate: 5% of the requests past the reservoir are traced",
    source:
      'https://github.com/awsdocs/aws-xray-developer-guide/blob/main/doc-source/xray-console-sampling.md',
    read: BILL_READ,
    note: '"Five percent is the rate" (same page).',
  },
  xrayTracesScannedEach: {
    value: 1,
    unit: 'scans a trace',
    what: 'each trace recorded is read once (a console view, a Logs Insights or trace query)',
    source: 'none: modelling choice',
    read: BILL_READ,
    note: 'An operator reads few traces; one read each is an upper bound for most stages.',
  },
} as const satisfies Record<string, Assumption>;

interface SourcedFact extends Sourced {
  what: string;
}

export const STREAM_READS_FREE = {
  what:
    'DynamoDB Streams GetRecords calls made by Lambda triggers (event source mappings) are ' +
    'free; only the Lambda invocations they cause are billed.',
  source: 'https://notes.paulswail.com/public/DynamoDB+streams',
  read: READ,
  note:
    'Quotes the DynamoDB pricing page: "You are not charged for GetRecords API calls invoked ' +
    'by AWS Lambda as part of DynamoDB triggers." The official pricing page text with this ' +
    'sentence was not in the stored excerpt of ' +
    'https://aws.amazon.com/dynamodb/pricing/on-demand/.',
} as const satisfies SourcedFact;
