// A local stand-in of SSM's JSON protocol (and of Lambda's REST JSON one), for the real SDK client
// pointed at it (its endpoint, or AWS_ENDPOINT_URL_SSM, AWS_ENDPOINT_URL_LAMBDA): each request's
// operation (X-Amz-Target, or method and path), input and signed-for region handed to `answer`,
// whose return is the answer's body.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SsmRequest {
  /** AmazonSSM.GetParameter, AmazonSSM.DescribeParameters, ...; GET /2016-08-19/account-settings */
  target: string;
  input: Record<string, unknown>;
  /** the region of the request's SigV4 credential scope */
  region: string | undefined;
}

export const startSsmStub = async (answer: (request: SsmRequest) => unknown) => {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const reply = answer({
        target: String(request.headers['x-amz-target'] ?? `${request.method} ${request.url}`),
        input: JSON.parse(body || '{}') as Record<string, unknown>,
        region: /Credential=[^/]+\/\d+\/([^/]+)\//.exec(request.headers.authorization ?? '')?.[1],
      });
      response
        .writeHead(200, { 'content-type': 'application/x-amz-json-1.1' })
        .end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
