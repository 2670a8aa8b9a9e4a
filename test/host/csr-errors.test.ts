// How plat csr words an error (csr-connection.ts describeError), as kubectl's StandardErrorMessage
// and CheckErr: the cases a running server does not easily give (several causes, a 401 without a
// Status, a request that got no answer).
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { runPlatAsync } from '../helpers/run-plat.js';
import { writeLoopbackKubeconfig } from '../helpers/loopback-kubeconfig.js';
import { ApiError } from '../../core/client/rest-client.js';
import { describeError } from '../../host/commands/csr-connection.js';

describe('plat csr error messages', () => {
  it('Status answers', () => {
    assert.equal(describeError(new ApiError(401, 'Unauthorized', 'Unauthorized')), 'You must be logged in to the server (Unauthorized)');
    // A 401 without a Status has reason Unauthorized and client-go's words (response-error.ts); a
    // Status without a reason is said as any other.
    assert.equal(describeError(new ApiError(401, 'Unauthorized', 'the server has asked for the client to provide credentials')), 'You must be logged in to the server (the server has asked for the client to provide credentials)');
    assert.equal(describeError(new ApiError(401, '', 'who?')), 'Error from server: who?');
    assert.equal(describeError(new ApiError(404, 'NotFound', 'x "y" not found')), 'Error from server (NotFound): x "y" not found');
    assert.equal(describeError(new ApiError(500, '', 'boom')), 'Error from server: boom');
  });

  it('Invalid: the kind and name, then one cause on the line or several on their own lines (duplicates once)', () => {
    const causes = [
      { field: 'spec.request', message: 'Invalid value: "eA==": PEM block type must be CERTIFICATE REQUEST' },
      { field: 'spec.usages', message: 'Required value' },
      { field: 'spec.usages', message: 'Required value' },
    ];
    const body = (c: object[]) => ({ kind: 'Status', reason: 'Invalid', details: { name: 'x', kind: 'CertificateSigningRequest', causes: c } });
    assert.equal(describeError(new ApiError(422, 'Invalid', 'm', body(causes))),
      'The CertificateSigningRequest "x" is invalid: \n* spec.request: Invalid value: "eA==": PEM block type must be CERTIFICATE REQUEST\n* spec.usages: Required value');
    assert.equal(describeError(new ApiError(422, 'Invalid', 'm', body(causes.slice(1)))), 'The CertificateSigningRequest "x" is invalid: spec.usages: Required value');
    assert.equal(describeError(new ApiError(422, 'Invalid', 'the message', { kind: 'Status' })), 'The request is invalid: the message');
  });

  it('a request that got no answer', () => {
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET', url: 'https://h:6443/apis' });
    assert.equal(describeError(reset), 'Unable to connect to the server: socket hang up');
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED', url: 'https://h:6443/apis' });
    assert.equal(describeError(refused), 'The connection to the server h:6443 was refused - did you specify the right host or port?');
    assert.equal(describeError(new Error('certificate signing request is denied')), 'certificate signing request is denied');
  });
});

describe('plat csr and a server that is not an API server', () => {
  it('over a kubeconfig\'s http:// loopback address: an answer that is not a list is said, not a crash (plat auth can-i too)', async () => {
    const server = http.createServer((_req, res) => { res.writeHead(200, { 'content-type': 'application/json' }).end('{}'); });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      const kubeconfig = writeLoopbackKubeconfig((server.address() as AddressInfo).port);
      const r = await runPlatAsync(['csr', 'list', '--kubeconfig', kubeconfig], { env: { PLATCONFIG: '', KUBECONFIG: '' } });
      assert.deepEqual([r.code, r.stdout, r.stderr], [1, '', 'plat csr list: the server did not answer with a list of CertificateSigningRequests\n']);
      const canI = await runPlatAsync(['auth', 'can-i', 'get', 'certificatesigningrequests', '--kubeconfig', kubeconfig], { env: { PLATCONFIG: '', KUBECONFIG: '' } });
      assert.equal(canI.code, 1, canI.stderr); // kubectl's CheckErr: every error is exit 1 (README)
      assert.match(canI.stderr, /discovery \/api\/v1: the server did not answer with an API resource list\n$/);
      assert.doesNotMatch(canI.stderr, /TypeError|    at /);
    } finally {
      server.close();
    }
  });
});
