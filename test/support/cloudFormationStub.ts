// CloudFormation's DescribeStacks as AWS answers it (the query protocol: a form body, an XML
// answer), on 127.0.0.1: for a script run with AWS_ENDPOINT_URL_CLOUDFORMATION pointing here.
import { createServer } from 'node:http';
import { listenLocally } from '../../infra/local/freePort.ts';

export interface StubbedRequest {
  /** The form's fields: Action, StackName, ... */
  form: URLSearchParams;
  /** The SigV4 Authorization header, whose scope names the region. */
  authorization: string;
}

const NS = 'http://cloudformation.amazonaws.com/doc/2010-05-15/';
const escaped = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Answers each stack in `stacks` with its outputs, any other name as AWS does: a ValidationError. */
export const startCloudFormationStub = async (
  stacks: Record<string, Record<string, string>>,
  /** a stack's StackStatus, when not UPDATE_COMPLETE */
  statuses: Record<string, string> = {},
) => {
  const requests: StubbedRequest[] = [];
  const server = createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += String(chunk);
    const form = new URLSearchParams(body);
    requests.push({ form, authorization: String(request.headers.authorization ?? '') });
    const name = form.get('StackName') ?? '';
    const outputs = Object.hasOwn(stacks, name) ? stacks[name] : undefined;
    response.setHeader('content-type', 'text/xml');
    if (form.get('Action') !== 'DescribeStacks' || outputs === undefined) {
      const message =
        form.get('Action') === 'DescribeStacks'
          ? `Stack with id ${name} does not exist`
          : `${form.get('Action')} is not stubbed`;
      response
        .writeHead(400)
        .end(
          `<ErrorResponse xmlns="${NS}"><Error><Type>Sender</Type><Code>ValidationError</Code><Message>${escaped(message)}</Message></Error><RequestId>stub</RequestId></ErrorResponse>`,
        );
      return;
    }
    const members = Object.entries(outputs)
      .map(
        ([key, value]) =>
          `<member><OutputKey>${escaped(key)}</OutputKey><OutputValue>${escaped(value)}</OutputValue></member>`,
      )
      .join('');
    response
      .writeHead(200)
      .end(
        `<DescribeStacksResponse xmlns="${NS}"><DescribeStacksResult><Stacks><member><StackName>${escaped(name)}</StackName><StackStatus>${statuses[name] ?? 'UPDATE_COMPLETE'}</StackStatus><CreationTime>2026-01-01T00:00:00Z</CreationTime><Outputs>${members}</Outputs></member></Stacks></DescribeStacksResult><ResponseMetadata><RequestId>stub</RequestId></ResponseMetadata></DescribeStacksResponse>`,
      );
  });
  const { port, stop } = await listenLocally(server);
  return { url: `http://127.0.0.1:${port}`, requests, stop };
};
