// Methods the installer registers no route for, answered as go-restful and serviceErrorHandler
// answer them: 405 "the server does not allow this method on the requested resource" (empty
// details) where the path has routes for other methods, 404 where it has none.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const NO_ROUTE = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server does not allow this method on the requested resource', reason: 'MethodNotAllowed', details: {}, code: 405 };
const NOT_FOUND = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404 };

describe('methods without a route', () => {
  let plat: RunningPlat;
  before(async () => {
    plat = await startInProcess();
    assert.equal((await plat.admin.post(CSRS, baseCsr(fixtures(), 'csr-a'))).status, 201);
  });
  after(async () => { await plat?.stop(); });

  const cases: [string, string, string, unknown][] = [
    ['POST on an object', 'POST', `${CSRS}/csr-a`, NO_ROUTE],
    ['DELETE on /status', 'DELETE', `${CSRS}/csr-a/status`, NO_ROUTE],
    ['POST on /approval', 'POST', `${CSRS}/csr-a/approval`, NO_ROUTE],
    ['GET on a create-only kind\'s collection', 'GET', '/apis/authentication.platform/v1/tokenreviews', NO_ROUTE],
    ['GET on a create-only kind\'s object path: no route at all', 'GET', '/apis/authentication.platform/v1/tokenreviews/x', NOT_FOUND],
  ];
  for (const [name, method, path, want] of cases) {
    it(name, async () => {
      const r = await plat.admin.request(method, path, method === 'POST' ? {} : undefined);
      assert.deepEqual(r.json, want, r.text);
    });
  }
});
