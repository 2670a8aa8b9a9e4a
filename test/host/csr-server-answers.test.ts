// `plat csr` against answers a proxy or a struggling server gives, worded and retried as kubectl's
// (client-go's transformResponse, NewGenericServerResponse, withRetry; kubectl's
// StandardErrorMessage): answers without a Status, a body cut short, 429 with Retry-After, a
// dropped connection, and --request-timeout (sent as `timeout=`, and `context deadline exceeded`).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runPlatAsync } from '../helpers/run-plat.js';
import { writeLoopbackKubeconfig } from '../helpers/loopback-kubeconfig.js';
import { cutBody, hang, json, reset, startScriptedServer, status, text, type ScriptedServer, type Step } from '../client/scripted-server.js';

const CSR = {
  apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest',
  metadata: { name: 'a', uid: 'u-a', resourceVersion: '5', creationTimestamp: '2024-01-01T00:00:00Z' },
  spec: { request: '', signerName: 'platform/apiserver-client', usages: ['client auth'], username: 'admin' }, status: {},
};
const SUFFIX = '(get certificatesigningrequests.certificates.platform a)';

describe('plat csr and answers that are not a Status', () => {
  let server: ScriptedServer;
  let kubeconfig: string;
  before(async () => { server = await startScriptedServer(); kubeconfig = writeLoopbackKubeconfig(Number(server.url.port)); });
  after(() => server.close());

  const cases: { name: string; steps: Step[]; args?: string[]; code: number; stderr: string; sent: number }[] = [
    {
      name: 'the API server\'s own 504 (a bare Status as text/plain)',
      steps: [text(504, JSON.stringify({ metadata: {}, status: 'Failure', message: 'Timeout: request did not complete within the allotted timeout', reason: 'Timeout', details: {}, code: 504 }), 'text/plain; charset=utf-8')],
      code: 1, sent: 1,
      stderr: `plat csr get: Error from server (Timeout): the server was unable to return a response in the time allotted, but may still be processing the request ${SUFFIX}\n`,
    },
    {
      name: 'a proxy\'s HTML page',
      steps: [text(502, '<html><body>Bad Gateway</body></html>', 'text/html')],
      code: 1, sent: 1,
      stderr: `plat csr get: Error from server (InternalError): an error on the server ("<html><body>Bad Gateway</body></html>") has prevented the request from succeeding ${SUFFIX}\n`,
    },
    {
      name: 'JSON that is no Status',
      steps: [json(404, { message: 'nope', reason: 'NotFound' })],
      code: 1, sent: 1,
      stderr: `plat csr get: Error from server (NotFound): the server could not find the requested resource ${SUFFIX}\n`,
    },
    {
      name: 'a Status is the server\'s own words',
      steps: [status(404, 'NotFound', 'certificatesigningrequests.certificates.platform "a" not found')],
      code: 1, sent: 1,
      stderr: 'plat csr get: Error from server (NotFound): certificatesigningrequests.certificates.platform "a" not found\n',
    },
    {
      name: 'a body cut short',
      steps: [cutBody],
      code: 1, sent: 1,
      stderr: 'plat csr get: unexpected error when reading response body. Please retry. Original error: unexpected EOF\n',
    },
    { name: '429 with Retry-After, then the object', steps: [text(429, 'Too many requests, please try again later.\n', 'text/plain', { 'retry-after': '0' }), json(200, CSR)], code: 0, sent: 2, stderr: '' },
    { name: 'a dropped connection, then the object', steps: [reset, json(200, CSR)], code: 0, sent: 2, stderr: '' },
    {
      name: '--request-timeout: no answer in time',
      steps: [hang], args: ['--request-timeout', '1s'],
      code: 1, sent: 1,
      stderr: 'plat csr get: Unable to connect to the server: context deadline exceeded\n',
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      server.script(...c.steps);
      const r = await runPlatAsync(['csr', 'get', 'a', '--kubeconfig', kubeconfig, ...(c.args ?? [])], { env: { PLATCONFIG: '', KUBECONFIG: '' } });
      assert.deepEqual([r.code, r.stderr], [c.code, c.stderr], r.stdout);
      if (c.code === 0) assert.match(r.stdout, /^NAME +AGE +SIGNERNAME[^\n]*\na +/);
      assert.equal(server.seen.length, c.sent, JSON.stringify(server.seen));
    });
  }

  it('--request-timeout is sent as the timeout parameter, as a Go duration; without it none is', async () => {
    server.script(json(200, CSR));
    await runPlatAsync(['csr', 'get', 'a', '--kubeconfig', kubeconfig, '--request-timeout', '1500ms'], { env: { PLATCONFIG: '', KUBECONFIG: '' } });
    await runPlatAsync(['csr', 'get', 'a', '--kubeconfig', kubeconfig], { env: { PLATCONFIG: '', KUBECONFIG: '' } });
    assert.deepEqual(server.seen.map((s) => new URL(s.url, 'http://x').searchParams.get('timeout')), ['1.5s', null]);
  });
});
