// ValidatingAdmissionWebhook end to end: plat in-process over HTTPS, real webhook servers on
// 127.0.0.1 trusted through caBundle. What the webhook receives, how its verdicts come back, and
// how failures to call it follow failurePolicy.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { freePort, startInProcess, type RunningPlat } from '../helpers/plat.js';
import { makeCa } from '../helpers/certs.js';
import { allow, answer, CSRS, deny, VWC, webhook, WebhookServer, withConfiguration } from './support.js';

const V = 'ValidatingWebhookConfiguration';

describe('ValidatingAdmissionWebhook', () => {
  let plat: RunningPlat;
  const server = new WebhookServer();
  const fx = fixtures();
  const csr = (name: string) => baseCsr(fx, name);
  before(async () => { await server.start(); plat = await startInProcess(); });
  after(async () => { await plat?.stop(); await server.stop(); });

  it('a webhook rejects one CSR with its own status and message and lets another through', async () => {
    server.on('/deny-bad', (review) => review.request.name.startsWith('bad')
      ? deny(review, { code: 403, reason: 'Forbidden', message: 'names starting with "bad" are not accepted' })
      : allow(review));
    await withConfiguration(plat.admin, V, 'deny-bad', [webhook(server, 'deny-bad.example.com', '/deny-bad')], async () => {
      const bad = await plat.admin.post(CSRS, csr('bad-one'));
      assert.equal(bad.status, 403, bad.text);
      assert.equal(bad.json.kind, 'Status');
      assert.equal(bad.json.status, 'Failure');
      assert.equal(bad.json.reason, 'Forbidden');
      assert.equal(bad.json.message, 'admission webhook "deny-bad.example.com" denied the request: names starting with "bad" are not accepted');
      assert.equal((await plat.admin.get(`${CSRS}/bad-one`)).status, 404);
      const good = await plat.admin.post(CSRS, csr('good-one'));
      assert.equal(good.status, 201, good.text);
    });
  });

  it('sends an admission.k8s.io/v1 AdmissionReview describing the request, with ?timeout', async () => {
    server.on('/record', (review) => allow(review));
    await withConfiguration(plat.admin, V, 'record', [webhook(server, 'record.example.com', '/record', { timeoutSeconds: 7 })], async () => {
      assert.equal((await plat.admin.post(CSRS, csr('recorded'))).status, 201);
    });
    const got = server.received.filter((r) => r.path === '/record');
    assert.equal(got.length, 1);
    const { review, query, headers } = got[0]!;
    assert.equal(query.get('timeout'), '7s');
    assert.equal(headers['content-type'], 'application/json');
    assert.equal(review.apiVersion, 'admission.k8s.io/v1');
    assert.equal(review.kind, 'AdmissionReview');
    const r = review.request;
    assert.match(r.uid, /^[0-9a-f-]{36}$/);
    assert.deepEqual(r.kind, { group: 'certificates.platform', version: 'v1', kind: 'CertificateSigningRequest' });
    assert.deepEqual(r.resource, { group: 'certificates.platform', version: 'v1', resource: 'certificatesigningrequests' });
    assert.deepEqual(r.requestKind, r.kind);
    assert.deepEqual(r.requestResource, r.resource);
    assert.equal(r.subResource, undefined);
    assert.equal(r.name, 'recorded');
    assert.equal(r.namespace, undefined);
    assert.equal(r.operation, 'CREATE');
    assert.equal(r.userInfo.username, 'plat-admin');
    assert.ok(r.userInfo.groups.includes('system:masters'), JSON.stringify(r.userInfo));
    assert.equal(r.dryRun, false);
    assert.deepEqual(r.options, { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' });
    assert.equal(r.oldObject, null);
    // Validating admission runs after the strategy: server-set fields are there.
    assert.equal(r.object.apiVersion, 'certificates.platform/v1');
    assert.equal(r.object.kind, 'CertificateSigningRequest');
    assert.equal(r.object.metadata.name, 'recorded');
    assert.equal(r.object.spec.username, 'plat-admin');
    assert.ok(r.object.metadata.uid);
  });

  it("bounds ?timeout by the request's own deadline, rounded up to whole seconds", async () => {
    server.on('/deadline', (review) => allow(review));
    await withConfiguration(plat.admin, V, 'deadline', [webhook(server, 'deadline.example.com', '/deadline', { timeoutSeconds: 10 })], async () => {
      assert.equal((await plat.admin.post(`${CSRS}?timeout=2s`, csr('deadline-short'))).status, 201);
      assert.equal((await plat.admin.post(`${CSRS}?timeout=1500ms`, csr('deadline-odd'))).status, 201);
      assert.equal((await plat.admin.post(`${CSRS}?timeout=30s`, csr('deadline-long'))).status, 201);
    });
    assert.deepEqual(server.received.filter((r) => r.path === '/deadline').map((r) => r.query.get('timeout')), ['2s', '2s', '10s']);
  });

  it('answers a denial without status as 400 "without explanation", and keeps a code and reason it was given', async () => {
    let status: Record<string, unknown> | undefined;
    server.on('/deny', (review) => answer(review, { allowed: false, ...(status ? { status } : {}) }));
    await withConfiguration(plat.admin, V, 'deny', [webhook(server, 'deny.example.com', '/deny')], async () => {
      let r = await plat.admin.post(CSRS, csr('no-status'));
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.message, 'admission webhook "deny.example.com" denied the request without explanation');
      status = { code: 422, reason: 'Invalid', message: 'spec is unacceptable', details: { name: 'no-status', causes: [{ field: 'spec', message: 'nope' }] } };
      r = await plat.admin.post(CSRS, csr('no-status'));
      assert.equal(r.status, 422, r.text);
      assert.equal(r.json.reason, 'Invalid');
      assert.equal(r.json.message, 'admission webhook "deny.example.com" denied the request: spec is unacceptable');
      assert.deepEqual(r.json.details, { name: 'no-status', causes: [{ field: 'spec', message: 'nope' }] });
      status = { code: 200, reason: 'SomethingElse' };
      r = await plat.admin.post(CSRS, csr('no-status'));
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.message, 'admission webhook "deny.example.com" denied the request: SomethingElse');
    });
  });

  it("passes the webhook's warnings to the client as Warning headers, on allow and on deny", async () => {
    server.on('/warn', (review) => review.request.name === 'warned-denied'
      ? answer(review, { allowed: false, warnings: ['second "warning"'], status: { code: 403, message: 'no' } })
      : allow(review, { warnings: ['first warning'] }));
    await withConfiguration(plat.admin, V, 'warn', [webhook(server, 'warn.example.com', '/warn')], async () => {
      const ok = await plat.admin.post(CSRS, csr('warned'));
      assert.equal(ok.status, 201, ok.text);
      assert.equal(ok.headers['warning'], '299 - "first warning"');
      const denied = await plat.admin.post(CSRS, csr('warned-denied'));
      assert.equal(denied.status, 403, denied.text);
      assert.equal(denied.headers['warning'], '299 - "second \\"warning\\""');
    });
  });

  describe('answers that break the protocol fail closed as 500 InternalError', () => {
    const cases: { name: string; body: (review: any) => unknown; status?: number; contentType?: string | null; reason: string }[] = [
      { name: 'uid not echoed', body: (rv) => ({ apiVersion: rv.apiVersion, kind: 'AdmissionReview', response: { uid: 'someone-else', allowed: true } }),
        reason: 'received invalid webhook response: expected response.uid="<uid>", got "someone-else"' },
      { name: 'uid missing', body: (rv) => ({ apiVersion: rv.apiVersion, kind: 'AdmissionReview', response: { allowed: true } }),
        reason: 'received invalid webhook response: expected response.uid="<uid>", got ""' },
      { name: 'no response', body: (rv) => ({ apiVersion: rv.apiVersion, kind: 'AdmissionReview' }),
        reason: 'received invalid webhook response: webhook response was absent' },
      { name: 'another apiVersion', body: (rv) => ({ apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', response: { uid: rv.request.uid, allowed: true } }),
        reason: 'received invalid webhook response: expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got admission.k8s.io/v1beta1, Kind=AdmissionReview' },
      { name: 'a patch from a validating webhook', body: (rv) => ({ apiVersion: rv.apiVersion, kind: 'AdmissionReview', response: { uid: rv.request.uid, allowed: true, patchType: 'JSONPatch', patch: Buffer.from('[]').toString('base64') } }),
        reason: 'received invalid webhook response: validating webhook may not return response.patch' },
      { name: 'allowed is not a bool', body: (rv) => ({ apiVersion: rv.apiVersion, kind: 'AdmissionReview', response: { uid: rv.request.uid, allowed: 'yes' } }),
        reason: 'failed to call webhook: json: cannot unmarshal string into Go struct field AdmissionResponse.response.allowed of type bool' },
      { name: 'not JSON', body: () => 'definitely not json', reason: "failed to call webhook: couldn't get version/kind; json parse error: " },
      // The webhook's request names no resource, so client-go adds no ` (post <resource>)`.
      { name: 'HTTP 500', status: 500, body: () => 'boom', reason: 'failed to call webhook: an error on the server ("boom") has prevented the request from succeeding' },
      { name: 'HTTP 404', status: 404, body: () => 'nope', reason: 'failed to call webhook: the server could not find the requested resource' },
      { name: 'HTTP 403 with a Status', status: 403, body: () => ({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'you may not', code: 403 }),
        reason: 'failed to call webhook: you may not' },
      // client-go repeats a body only when it is text (text/*, or no Content-Type), at most 2048 bytes.
      { name: 'HTTP 500 with JSON that is no Status', status: 500, body: () => ({ error: 'x' }),
        reason: 'failed to call webhook: an error on the server ("unknown") has prevented the request from succeeding' },
      { name: 'HTTP 500 with a Status that is no Failure', status: 500, body: () => ({ kind: 'Status', apiVersion: 'v1', status: 'Success', message: 'fine' }),
        reason: 'failed to call webhook: an error on the server ("unknown") has prevented the request from succeeding' },
      { name: 'HTTP 502 without a Content-Type', status: 502, contentType: null, body: () => `  ${'y'.repeat(3000)}`,
        reason: `failed to call webhook: an error on the server ("${'y'.repeat(2046)}") has prevented the request from succeeding` },
      { name: 'HTTP 500 with a Status in HTML clothes', status: 500, contentType: 'text/html', body: () => JSON.stringify({ kind: 'Status', status: 'Failure', message: 'typed as html' }),
        reason: 'failed to call webhook: typed as html' },
      { name: 'HTTP 207 is an error to client-go', status: 207, body: (rv) => ({ apiVersion: rv.apiVersion, kind: 'AdmissionReview', response: { uid: rv.request.uid, allowed: true } }),
        reason: 'failed to call webhook: the server responded with the status code 207 but did not return more information' },
      { name: 'an empty 200', contentType: null, body: () => '',
        reason: 'failed to call webhook: 0-length response with status code: 200 and content type: application/json' },
      { name: 'JSON that breaks off', contentType: 'application/json', body: () => '{"kind": "AdmissionReview", ',
        reason: "failed to call webhook: couldn't get version/kind; json parse error: unexpected end of JSON input" },
      { name: 'JSON with a bad character', contentType: 'application/json', body: () => '{kind}',
        reason: "failed to call webhook: couldn't get version/kind; json parse error: invalid character 'k' looking for beginning of object key string" },
      { name: 'a kind that is no string', body: () => ({ kind: 5 }),
        reason: "failed to call webhook: couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string" },
      { name: 'an apiVersion with two slashes', body: () => ({ apiVersion: 'a/b/c', kind: 'AdmissionReview' }),
        reason: 'failed to call webhook: unexpected GroupVersion string: a/b/c' },
      // Decoded into the typed review, a missing kind is no decode error; the uid is checked first.
      { name: 'no kind', body: (rv) => ({ apiVersion: rv.apiVersion, response: { uid: rv.request.uid, allowed: true } }),
        reason: 'received invalid webhook response: expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got admission.k8s.io/v1, Kind=' },
      { name: 'no kind and the wrong uid', body: (rv) => ({ apiVersion: rv.apiVersion, response: { uid: 'other', allowed: true } }),
        reason: 'received invalid webhook response: expected response.uid="<uid>", got "other"' },
      { name: 'no apiVersion', body: (rv) => ({ kind: 'AdmissionReview', response: { uid: rv.request.uid, allowed: true } }),
        reason: 'received invalid webhook response: expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got /, Kind=AdmissionReview' },
      { name: 'a core apiVersion', body: (rv) => ({ apiVersion: 'v1', kind: 'AdmissionReview', response: { uid: rv.request.uid, allowed: true } }),
        reason: 'received invalid webhook response: expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got /v1, Kind=AdmissionReview' },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        server.on('/broken', (review) => ({ status: c.status ?? 200, body: c.body(review), ...(c.contentType !== undefined ? { contentType: c.contentType } : {}) }));
        await withConfiguration(plat.admin, V, 'broken', [webhook(server, 'broken.example.com', '/broken')], async () => {
          const before = server.reviewsFor('/broken').length;
          const r = await plat.admin.post(CSRS, csr('broken-answer'));
          assert.equal(r.status, 500, r.text);
          assert.equal(r.json.reason, 'InternalError');
          const uid = server.reviewsFor('/broken')[before]!.request.uid;
          const expected = `failed calling webhook "broken.example.com": ${c.reason.replace('<uid>', uid)}`;
          if (c.name === 'not JSON') assert.ok(r.json.message.startsWith(`Internal error occurred: ${expected}`), r.json.message);
          else assert.equal(r.json.message, `Internal error occurred: ${expected}`);
          assert.equal(r.json.details.causes[0].message, r.json.message.replace('Internal error occurred: ', ''));
          assert.equal((await plat.admin.get(`${CSRS}/broken-answer`)).status, 404);
        });
      });
    }
  });

  it('failurePolicy decides when the webhook is down: Fail refuses with 500, Ignore lets the request through', async () => {
    const port = await freePort();
    const down = { name: 'down.example.com', clientConfig: { url: `https://127.0.0.1:${port}/x`, caBundle: server.caBundle } };
    await withConfiguration(plat.admin, V, 'down-fail', [webhook(server, 'down.example.com', '/x', { ...down, failurePolicy: 'Fail' })], async () => {
      const r = await plat.admin.post(CSRS, csr('while-down'));
      assert.equal(r.status, 500, r.text);
      assert.equal(r.json.message, `Internal error occurred: failed calling webhook "down.example.com": failed to call webhook: Post "https://127.0.0.1:${port}/x?timeout=5s": dial tcp 127.0.0.1:${port}: connect: connection refused`);
    });
    await withConfiguration(plat.admin, V, 'down-ignore', [webhook(server, 'down.example.com', '/x', { ...down, failurePolicy: 'Ignore' })], async () => {
      const r = await plat.admin.post(CSRS, csr('while-down'));
      assert.equal(r.status, 201, r.text);
    });
  });

  it('a service reference is called at https://<name>.<namespace>.svc:<port><path>', async () => {
    const clientConfig = { service: { namespace: 'plat-system', name: 'hooks', port: 8443, path: '/admit' }, caBundle: server.caBundle };
    await withConfiguration(plat.admin, V, 'svc', [webhook(server, 'svc.example.com', '/', { clientConfig, timeoutSeconds: 2 })], async () => {
      const r = await plat.admin.post(CSRS, csr('via-service'));
      assert.equal(r.status, 500, r.text);
      // The name does not resolve here (or the resolver is slow): either way the call fails at that URL.
      assert.ok(r.json.message.startsWith('Internal error occurred: failed calling webhook "svc.example.com": failed to call webhook: Post "https://hooks.plat-system.svc:8443/admit?timeout=2s": '), r.json.message);
    });
  });

  it('sends the review again when the answer asks for it (429 or 5xx with Retry-After), as client-go\'s REST client, and only then', async () => {
    let calls = 0;
    server.on('/busy', (review) => (++calls === 1 ? { status: 503, body: 'busy', headers: { 'retry-after': '1' } } : allow(review)));
    server.on('/busy-without-retry-after', () => ({ status: 503, body: 'busy' }));
    await withConfiguration(plat.admin, V, 'busy', [webhook(server, 'busy.example.com', '/busy')], async () => {
      const r = await plat.admin.post(CSRS, csr('after-a-retry'));
      assert.equal(r.status, 201, r.text);
    });
    const busy = server.received.filter((r) => r.path === '/busy');
    assert.equal(busy.length, 2);
    assert.deepEqual(busy[1]!.review, busy[0]!.review, 'the same review, uid included');
    await withConfiguration(plat.admin, V, 'busy-2', [webhook(server, 'busy-2.example.com', '/busy-without-retry-after')], async () => {
      const r = await plat.admin.post(CSRS, csr('no-retry'));
      assert.equal(r.status, 500, r.text);
    });
    assert.equal(server.received.filter((r) => r.path === '/busy-without-retry-after').length, 1);
  });

  it('a webhook that never answers times out after timeoutSeconds and the failure policy applies', async () => {
    server.on('/hang', () => 'hang');
    const hang = (policy: string) => [webhook(server, 'hang.example.com', '/hang', { timeoutSeconds: 1, failurePolicy: policy })];
    await withConfiguration(plat.admin, V, 'hang-fail', hang('Fail'), async () => {
      const r = await plat.admin.post(CSRS, csr('slow'));
      assert.equal(r.status, 500, r.text);
      assert.equal(r.json.message, `Internal error occurred: failed calling webhook "hang.example.com": failed to call webhook: Post "https://127.0.0.1:${server.port}/hang?timeout=1s": context deadline exceeded`);
    });
    await withConfiguration(plat.admin, V, 'hang-ignore', hang('Ignore'), async () => {
      assert.equal((await plat.admin.post(CSRS, csr('slow'))).status, 201);
    });
  });

  it('the server certificate must verify against caBundle (an unrelated CA fails, as does the system trust without one)', async () => {
    server.on('/tls', (review) => allow(review));
    const otherCa = Buffer.from(makeCa({ commonName: 'unrelated' }).certificatePem).toString('base64');
    for (const clientConfig of [{ url: server.url('/tls'), caBundle: otherCa }, { url: server.url('/tls') }]) {
      await withConfiguration(plat.admin, V, 'tls', [webhook(server, 'tls.example.com', '/tls', { clientConfig })], async () => {
        const r = await plat.admin.post(CSRS, csr('tls-check'));
        assert.equal(r.status, 500, r.text);
        assert.equal(r.json.message, `Internal error occurred: failed calling webhook "tls.example.com": failed to call webhook: Post "https://127.0.0.1:${server.port}/tls?timeout=5s": tls: failed to verify certificate: x509: certificate signed by unknown authority`);
      });
    }
    assert.equal(server.reviewsFor('/tls').length, 0);
  });

  describe('a caBundle client-go cannot load fails before any connection, in its words', () => {
    const notCa = Buffer.from('-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n').toString('base64');
    const cases = [
      { name: 'not PEM', caBundle: Buffer.from('not a certificate').toString('base64'), reason: 'unable to parse bytes as PEM block' },
      { name: 'PEM without a certificate', caBundle: notCa, reason: 'no valid certificate authority data seen' },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        server.on('/badca', (review) => allow(review));
        const clientConfig = { url: server.url('/badca'), caBundle: c.caBundle };
        await withConfiguration(plat.admin, V, 'badca', [webhook(server, 'badca.example.com', '/badca', { clientConfig })], async () => {
          const r = await plat.admin.post(CSRS, csr('badca'));
          assert.equal(r.status, 500, r.text);
          assert.equal(r.json.message, `Internal error occurred: failed calling webhook "badca.example.com": could not get REST client: unable to load root certificates: ${c.reason}`);
        });
        assert.equal(server.reviewsFor('/badca').length, 0);
      });
    }
  });

  it('dry-run requests reach webhooks with sideEffects None, marked dryRun, and nothing is stored', async () => {
    server.on('/dry', (review) => allow(review));
    await withConfiguration(plat.admin, V, 'dry', [webhook(server, 'dry.example.com', '/dry')], async () => {
      const r = await plat.admin.post(`${CSRS}?dryRun=All`, csr('dry'));
      assert.equal(r.status, 201, r.text);
      const review = server.reviewsFor('/dry').at(-1);
      assert.equal(review.request.dryRun, true);
      assert.deepEqual(review.request.options, { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', dryRun: ['All'] });
      assert.equal((await plat.admin.get(`${CSRS}/dry`)).status, 404);
    });
  });

  it('speaks admission.k8s.io/v1beta1 to a webhook that only lists v1beta1 (whose answers were never uid-checked)', async () => {
    server.on('/beta', (review) => ({ body: { apiVersion: 'admission.k8s.io/v1beta1', kind: 'AdmissionReview', response: { allowed: review.request.name !== 'beta-denied' } } }));
    await withConfiguration(plat.admin, V, 'beta', [webhook(server, 'beta.example.com', '/beta', { admissionReviewVersions: ['v1beta1', 'v1'] })], async () => {
      assert.equal((await plat.admin.post(CSRS, csr('beta-ok'))).status, 201);
      const denied = await plat.admin.post(CSRS, csr('beta-denied'));
      assert.equal(denied.status, 400, denied.text);
      assert.equal(server.reviewsFor('/beta').at(-1).apiVersion, 'admission.k8s.io/v1beta1');
    });
  });

  it('sees DELETE with oldObject and DeleteOptions, and can refuse it', async () => {
    assert.equal((await plat.admin.post(CSRS, csr('to-delete'))).status, 201);
    server.on('/delete', (review) => deny(review, { code: 403, message: 'keep it' }));
    const rule = { operations: ['DELETE'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*'] };
    await withConfiguration(plat.admin, V, 'delete', [webhook(server, 'delete.example.com', '/delete', { rules: [rule] })], async () => {
      const r = await plat.admin.delete(`${CSRS}/to-delete`);
      assert.equal(r.status, 403, r.text);
      assert.equal(r.json.message, 'admission webhook "delete.example.com" denied the request: keep it');
      const review = server.reviewsFor('/delete').at(-1);
      assert.equal(review.request.operation, 'DELETE');
      assert.equal(review.request.name, 'to-delete');
      assert.equal(review.request.object, null);
      assert.equal(review.request.oldObject.metadata.name, 'to-delete');
      assert.deepEqual(review.request.options, { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1' });
    });
    assert.equal((await plat.admin.delete(`${CSRS}/to-delete`)).status, 200);
  });

  it('is never asked about webhook configurations themselves', async () => {
    server.on('/all', (review) => deny(review, { code: 403, message: 'everything is denied' }));
    const everything = { operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] };
    await withConfiguration(plat.admin, V, 'deny-all', [webhook(server, 'all.example.com', '/all', { rules: [everything] })], async () => {
      const other = { apiVersion: 'admissionregistration.platform/v1', kind: V, metadata: { name: 'another' }, webhooks: [] };
      assert.equal((await plat.admin.post(VWC, other)).status, 201);
      assert.equal((await plat.admin.delete(`${VWC}/another`)).status, 200);
      assert.equal((await plat.admin.post(CSRS, csr('under-deny-all'))).status, 403);
    });
    assert.ok(server.reviewsFor('/all').every((r) => r.request.resource.group !== 'admissionregistration.platform'));
  });

  it('runs after object validation: an invalid CSR is a 422 and the webhook is not called', async () => {
    server.on('/after-validation', (review) => allow(review));
    await withConfiguration(plat.admin, V, 'after-validation', [webhook(server, 'after.example.com', '/after-validation')], async () => {
      const bad = csr('invalid-usages');
      bad.spec.usages = [];
      assert.equal((await plat.admin.post(CSRS, bad)).status, 422);
    });
    assert.equal(server.reviewsFor('/after-validation').length, 0);
  });

  it('a configuration written just now applies to the next request, and stops applying once deleted', async () => {
    server.on('/now', (review) => deny(review, { code: 403, message: 'not now' }));
    await withConfiguration(plat.admin, V, 'now', [webhook(server, 'now.example.com', '/now')], async () => {
      assert.equal((await plat.admin.post(CSRS, csr('now-1'))).status, 403);
    });
    assert.equal((await plat.admin.post(CSRS, csr('now-1'))).status, 201);
  });
});
