// Audit events of real requests to `plat all` in process, written by the log backend: what each
// stage carries, as upstream's WithAudit, WithFailedAuthenticationAudit and WithAuthorization
// fill it (group names renamed: audit.platform/v1 events, authorization.platform annotations).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import tls from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { csrBody, makeCsr } from '../csrsigning/support.js';
import { Kubectl } from '../helpers/kubectl.js';
import { waitUntil } from '../helpers/watch-stream.js';
import { CSRS, eventsOf, readEvents, startAudited, type AuditedPlat } from './support.js';

const POLICY = `apiVersion: audit.platform/v1
kind: Policy
rules:
- level: None
  nonResourceURLs: ["/healthz*"]
- level: Metadata
  verbs: [list]
  omitStages: [RequestReceived]
- level: Request
  verbs: [patch]
- level: RequestResponse
  resources: [{group: certificates.platform, resources: [certificatesigningrequests]}]
- level: Metadata
`;
const MICRO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** POSTs a CSR of which only the first bytes are sent, then closes the connection. */
async function cutPost(plat: AuditedPlat['plat'], auditID: string): Promise<void> {
  const pki = path.join(plat.dataDir, 'pki');
  const url = new URL(plat.url);
  const body = JSON.stringify(csrBody('cut', makeCsr({ cn: 'x' }), 'example.com/x', ['client auth']));
  await new Promise<void>((resolve, reject) => {
    const s = tls.connect({
      host: url.hostname, port: Number(url.port), ALPNProtocols: ['http/1.1'],
      ca: readFileSync(path.join(pki, 'ca.crt')), cert: readFileSync(path.join(pki, 'admin.crt')), key: readFileSync(path.join(pki, 'admin.key')),
    }, () => {
      s.write(`POST ${CSRS}?timeout=1s HTTP/1.1\r\nHost: ${url.host}\r\nAudit-Id: ${auditID}\r\nContent-Type: application/json\r\n`
        + `Content-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`, () => setTimeout(() => { s.destroy(); resolve(); }, 200));
    });
    s.on('error', reject);
  });
}

describe('audit events', () => {
  let a: AuditedPlat;
  let n = 0;
  const id = () => `test-audit-${++n}`;
  before(async () => {
    a = await startAudited(POLICY, ['--authorization-mode=RBAC']);
  });
  after(async () => { await a?.plat.stop(); });

  it('a create at RequestResponse: RequestReceived, then ResponseComplete with both objects, objectRef and the authorization decision', async () => {
    const auditID = id();
    const r = await a.plat.admin.post(CSRS, csrBody('audited', makeCsr({ cn: 'x' }), 'example.com/x', ['client auth']), { 'audit-id': auditID, 'user-agent': 'audit-test/1.0' });
    assert.equal(r.status, 201);
    assert.equal(r.headers['audit-id'], auditID);
    const [received, complete, ...rest] = await eventsOf(a.log, auditID);
    assert.equal(rest.length, 0);
    const user = { username: 'plat-admin', groups: ['system:masters', 'system:authenticated'], extra: received.user.extra };
    assert.match(user.extra['authentication.platform/credential-id'][0], /^X509SHA256=/);
    const common = {
      kind: 'Event', apiVersion: 'audit.platform/v1', level: 'RequestResponse', auditID, requestURI: CSRS, verb: 'create', user,
      sourceIPs: ['127.0.0.1'], userAgent: 'audit-test/1.0',
    };
    assert.deepEqual(Object.keys(received), ['kind', 'apiVersion', 'level', 'auditID', 'stage', 'requestURI', 'verb', 'user', 'sourceIPs', 'userAgent', 'objectRef', 'requestReceivedTimestamp', 'stageTimestamp']);
    assert.deepEqual(received, {
      ...common, stage: 'RequestReceived', objectRef: { resource: 'certificatesigningrequests', apiGroup: 'certificates.platform', apiVersion: 'v1' },
      requestReceivedTimestamp: received.requestReceivedTimestamp, stageTimestamp: received.requestReceivedTimestamp,
    });
    assert.match(received.requestReceivedTimestamp, MICRO);
    assert.deepEqual(Object.keys(complete), ['kind', 'apiVersion', 'level', 'auditID', 'stage', 'requestURI', 'verb', 'user', 'sourceIPs', 'userAgent', 'objectRef',
      'responseStatus', 'requestObject', 'responseObject', 'requestReceivedTimestamp', 'stageTimestamp', 'annotations']);
    assert.equal(complete.stage, 'ResponseComplete');
    assert.deepEqual({ ...complete, requestObject: undefined, responseObject: undefined, stageTimestamp: undefined }, {
      ...common, stage: 'ResponseComplete',
      objectRef: { resource: 'certificatesigningrequests', name: 'audited', apiGroup: 'certificates.platform', apiVersion: 'v1' },
      responseStatus: { metadata: {}, code: 201 },
      requestObject: undefined, responseObject: undefined,
      requestReceivedTimestamp: received.requestReceivedTimestamp, stageTimestamp: undefined,
      annotations: { 'authorization.platform/decision': 'allow', 'authorization.platform/reason': '' },
    });
    assert.match(complete.stageTimestamp, MICRO);
    // The request object as it was decoded (before the strategy filled the requester in), the answer as sent.
    assert.deepEqual(complete.requestObject.metadata, { name: 'audited' });
    assert.equal(complete.requestObject.spec.username, undefined);
    assert.deepEqual(complete.responseObject, r.json);
  });

  it('a new Audit-ID when the client sends none', async () => {
    const r = await a.plat.admin.get('/version');
    assert.match(String(r.headers['audit-id']), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const evs = await eventsOf(a.log, String(r.headers['audit-id']));
    assert.deepEqual(evs.map((e) => [e.stage, e.level, e.verb, e.requestURI, e.objectRef]), [['RequestReceived', 'Metadata', 'get', '/version', undefined], ['ResponseComplete', 'Metadata', 'get', '/version', undefined]]);
  });

  it('a list at Metadata, its rule omitting RequestReceived: one event, no objects', async () => {
    const auditID = id();
    await a.plat.admin.get(`${CSRS}?limit=5`, { 'audit-id': auditID });
    const evs = await eventsOf(a.log, auditID);
    assert.deepEqual(evs.map((e) => e.stage), ['ResponseComplete']);
    assert.equal(evs[0].level, 'Metadata');
    assert.equal(evs[0].requestURI, `${CSRS}?limit=5`);
    assert.equal(evs[0].requestObject, undefined);
    assert.equal(evs[0].responseObject, undefined);
    assert.deepEqual(evs[0].responseStatus, { metadata: {}, code: 200 });
  });

  it('a patch at Request: the patch as sent, no response object', async () => {
    const auditID = id();
    const patch = { metadata: { labels: { a: 'b' } } };
    const r = await a.plat.admin.patch(`${CSRS}/audited`, patch, 'application/merge-patch+json', { 'audit-id': auditID });
    assert.equal(r.status, 200);
    const evs = await eventsOf(a.log, auditID);
    const complete = evs.find((e) => e.stage === 'ResponseComplete');
    assert.equal(complete.level, 'Request');
    assert.deepEqual(complete.requestObject, patch);
    assert.equal(complete.responseObject, undefined);
  });

  it('a delete with a body: its DeleteOptions, as decoded, are the request object (kubectl delete sends one)', async () => {
    assert.equal((await a.plat.admin.post(CSRS, csrBody('audited-del', makeCsr({ cn: 'x' }), 'example.com/x', ['client auth']))).status, 201);
    const auditID = id();
    const body = { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background', bogus: 1 };
    const r = await a.plat.admin.request('DELETE', `${CSRS}/audited-del`, body, { 'audit-id': auditID });
    assert.equal(r.status, 200, r.text);
    const complete = (await eventsOf(a.log, auditID)).find((e) => e.stage === 'ResponseComplete');
    assert.equal(complete.level, 'RequestResponse');
    assert.deepEqual(complete.requestObject, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' });
    assert.equal(complete.objectRef.name, 'audited-del');
  });

  it('a path at level None is not audited', async () => {
    const skipped = id();
    await a.plat.admin.get('/healthz', { 'audit-id': skipped });
    const later = id();
    await a.plat.admin.get('/version', { 'audit-id': later });
    await eventsOf(a.log, later);
    assert.deepEqual(readEvents(a.log).filter((e) => e.auditID === skipped), []);
  });

  it('a 401: one event, at ResponseStarted, no user, naming the credentials tried', async () => {
    const auditID = id();
    const r = await a.plat.admin.with({ token: 'not-a-token' }).get('/api', { 'audit-id': auditID });
    assert.equal(r.status, 401);
    const evs = await eventsOf(a.log, auditID, 'ResponseStarted');
    assert.deepEqual(evs.map((e) => ({ ...e, requestReceivedTimestamp: undefined, stageTimestamp: undefined, userAgent: undefined })), [{
      kind: 'Event', apiVersion: 'audit.platform/v1', level: 'Metadata', auditID, stage: 'ResponseStarted', requestURI: '/api', verb: 'get', user: {},
      sourceIPs: ['127.0.0.1'], userAgent: undefined, responseStatus: { metadata: {}, message: 'Authentication failed, attempted: bearer', code: 401 },
      requestReceivedTimestamp: undefined, stageTimestamp: undefined,
    }]);
    const none = id();
    await a.plat.admin.with({ anonymous: true }).get('/api', { 'audit-id': none });
    const anon = await eventsOf(a.log, none, 'ResponseStarted');
    assert.deepEqual(anon.map((e) => e.responseStatus), [{ metadata: {}, message: 'Authentication failed, no credentials provided', code: 401 }]);
  });

  it('a 403: the Status in responseStatus and objects, the decision forbid', async () => {
    const auditID = id();
    const r = await a.plat.admin.get(`${CSRS}/audited`, { 'audit-id': auditID, 'impersonate-user': 'mallory' });
    // plat-admin may impersonate; mallory may not read CSRs.
    assert.equal(r.status, 403);
    const evs = await eventsOf(a.log, auditID);
    const complete = evs.find((e) => e.stage === 'ResponseComplete');
    assert.equal(complete.user.username, 'plat-admin');
    assert.deepEqual(complete.impersonatedUser, { username: 'mallory', groups: ['system:authenticated'] });
    assert.deepEqual(complete.responseStatus, {
      metadata: {}, status: 'Failure', message: r.json.message, reason: 'Forbidden', details: r.json.details, code: 403,
    });
    assert.deepEqual(complete.responseObject, r.json);
    assert.equal(complete.annotations['authorization.platform/decision'], 'forbid');
    assert.equal(typeof complete.annotations['authorization.platform/reason'], 'string');
  });

  it('a watch gets ResponseStarted when its answer starts, then ResponseComplete', async () => {
    const auditID = id();
    const r = await a.plat.admin.get(`${CSRS}?watch=1&timeoutSeconds=1`, { 'audit-id': auditID });
    assert.equal(r.status, 200);
    const evs = await eventsOf(a.log, auditID);
    assert.deepEqual(evs.map((e) => [e.stage, e.verb, e.responseStatus]), [
      ['RequestReceived', 'watch', undefined], ['ResponseStarted', 'watch', { metadata: {}, code: 200 }], ['ResponseComplete', 'watch', { metadata: {}, code: 200 }],
    ]);
  });

  it('a client gone before its answer: one ResponseComplete (the 504 of its ended context), no faked 200, no Panic for the cancelled body read', async () => {
    const auditID = id();
    await cutPost(a.plat, auditID);
    // The handler gives up on the body at the request's 1 s deadline at the latest; its event is the only one.
    const [received, complete] = await eventsOf(a.log, auditID);
    assert.equal(received.stage, 'RequestReceived');
    assert.equal(complete.stage, 'ResponseComplete');
    assert.notEqual(complete.responseStatus.message, 'Connection closed early');
    await new Promise((r) => setTimeout(r, 1500));
    assert.deepEqual(readEvents(a.log).filter((e) => e.auditID === auditID).map((e) => e.stage), ['RequestReceived', 'ResponseComplete']);
  });

  it('kubectl get csr is audited with its user agent', async () => {
    const kubectl = new Kubectl(a.plat.kubeconfig);
    const before = readEvents(a.log).length;
    const r = await kubectl.run(['get', 'csr', 'audited']);
    assert.equal(r.code, 0, r.stderr);
    const ev = await waitUntil(() => readEvents(a.log).slice(before).find((e) => e.stage === 'ResponseComplete' && e.requestURI === `${CSRS}/audited`), 'the kubectl get event');
    assert.match(ev.userAgent, /^kubectl\//);
    assert.equal(ev.level, 'RequestResponse');
    assert.equal(ev.verb, 'get');
    assert.equal(ev.objectRef.name, 'audited');
    // kubectl asks for a Table: the answer audited is what it got.
    assert.equal(ev.responseObject.kind, 'Table');
  });
});

describe('audit without a policy file', () => {
  it('nothing is logged, but every answer carries an Audit-Id', async () => {
    const { startInProcess, tempDir } = await import('../helpers/plat.js');
    const dir = tempDir('plat-audit-nopolicy-');
    const log = path.join(dir, 'audit.log');
    const plat = await startInProcess({ args: ['--controllers=', '--audit-log-path', log] });
    try {
      const r = await plat.admin.get('/version', { 'audit-id': 'given' });
      assert.equal(r.headers['audit-id'], 'given');
      assert.deepEqual(readEvents(log), []);
    } finally {
      await plat.stop();
    }
  });
});
