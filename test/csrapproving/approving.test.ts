// csrapproving against a real plat over HTTPS (k8s-behaviour §4.2): the requester's permission is
// asked with a SubjectAccessReview answered by a real authorizer (a rule table before AlwaysDeny);
// bootstrap-token users file node client CSRs, static-token node users renew their own.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SIGNER_APISERVER_CLIENT, SIGNER_NODEAGENT_CLIENT, SIGNER_NODEAGENT_SERVING, type Csr } from '../../core/certificates/csr-object.js';
import { RestClient, ApiError } from '../../core/client/rest-client.js';
import { IgnorableError } from '../../core/controller/workers.js';
import { createCsr, generateKeyPair } from '../../core/crypto/index.js';
import { encodeName } from '../../core/crypto/names.js';
import { formatDuration, parseDuration } from '../../core/flags/duration.js';
import { CsrApprovingController, sarApprover } from '../../plugins/csrapproving/index.js';
import { adminConnection } from '../controller/support.js';
import { eventually } from '../helpers/kubectl.js';
import { startInProcess, tempDir, type Client, type RunningPlat } from '../helpers/plat.js';
import { tableAuthorizer } from '../helpers/table-authorizer.js';
import { craftMlDsaCsr, mlDsaKeys } from '../crypto/csr-craft.js';
import { runController } from './harness.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const SECRETS = '/api/v1/namespaces/plat-system/secrets';
const SELF_MESSAGE = 'Auto approving self nodeagent client certificate after SubjectAccessReview.';
const NODE_MESSAGE = 'Auto approving nodeagent client certificate after SubjectAccessReview.';

const TOKENS = {
  bootstrap: 'abcdef.0123456789abcdef', // system:bootstrap:abcdef, in the kubeadm node-token group
  stranger: 'zzzzzz.0123456789abcdef', // system:bootstrap:zzzzzz, no auto-approval group
  node1: 'node1-token-0123456789', // system:node:node1 in system:nodes
  node9: 'node9-token-0123456789', // system:node:node9, not in system:nodes, may create nodeclient
  node8: 'node8-token-0123456789', // system:node:node8, no approval rights at all
  mallory: 'mallory-token-0123456789', // may not create SubjectAccessReviews
};

const rules = tableAuthorizer([
  { group: 'system:masters', decision: 'allow' },
  { group: 'system:authenticated', verb: 'create', apiGroup: 'certificates.platform', resource: 'certificatesigningrequests', subresource: '', decision: 'allow' },
  { group: 'system:bootstrappers:kubeadm:default-node-token', verb: 'create', apiGroup: 'certificates.platform', resource: 'certificatesigningrequests', subresource: 'nodeclient', decision: 'allow' },
  { group: 'system:nodes', verb: 'create', apiGroup: 'certificates.platform', resource: 'certificatesigningrequests', subresource: 'selfnodeclient', decision: 'allow' },
  { user: 'system:node:node9', verb: 'create', apiGroup: 'certificates.platform', resource: 'certificatesigningrequests', subresource: 'nodeclient', decision: 'allow' },
]);

function tokenFile(dir: string): string {
  const file = path.join(dir, 'tokens.csv');
  writeFileSync(file, [
    `${TOKENS.node1},system:node:node1,uid-node1,"system:nodes"`,
    `${TOKENS.node9},system:node:node9,uid-node9,"other"`,
    `${TOKENS.node8},system:node:node8,uid-node8`,
    `${TOKENS.mallory},mallory,uid-mallory`,
  ].join('\n') + '\n');
  return file;
}

const key = generateKeyPair('ecdsa-p256');

interface CsrShape { cn: string; org?: string[]; dns?: string[]; signer?: string; usages?: string[]; mlDsa?: boolean }

function csrBody(name: string, o: CsrShape): Csr {
  const subject = { commonName: o.cn, organizations: o.org ?? ['system:nodes'] };
  const pem = o.mlDsa
    ? craftMlDsaCsr({ keys: mlDsaKeys('ML-DSA-65'), subject: encodeName(subject) })
    : createCsr({ subject, dnsNames: o.dns ?? [], privateKey: key.keyObject });
  return {
    apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest', metadata: { name },
    spec: { request: Buffer.from(pem).toString('base64'), signerName: o.signer ?? SIGNER_NODEAGENT_CLIENT, usages: o.usages ?? ['digital signature', 'client auth'] },
  };
}

describe('csrapproving', () => {
  let plat: RunningPlat;
  let admin: RestClient;
  const as = (who: keyof typeof TOKENS): Client => plat.admin.with({ token: TOKENS[who] });
  const file = async (who: keyof typeof TOKENS, name: string, o: CsrShape): Promise<Csr> => {
    const r = await as(who).post(CSRS, csrBody(name, o));
    assert.equal(r.status, 201, r.text);
    return r.json as Csr;
  };
  const read = async (name: string): Promise<Csr> => (await plat.admin.get(`${CSRS}/${name}`)).json as Csr;

  before(async () => {
    const dir = tempDir('plat-approving-');
    plat = await startInProcess({
      // This test runs its own controllers; the embedded ones would race it.
      args: ['--enable-bootstrap-token-auth', '--authorization-mode=AlwaysDeny', `--token-auth-file=${tokenFile(dir)}`, '--controllers='],
      plugins: [rules],
    });
    for (const [id, extra] of [['abcdef', { 'auth-extra-groups': 'system:bootstrappers:kubeadm:default-node-token' }], ['zzzzzz', {}]] as const) {
      const r = await plat.admin.post(SECRETS, {
        apiVersion: 'v1', kind: 'Secret', metadata: { name: `bootstrap-token-${id}` }, type: 'bootstrap.platform/token',
        stringData: { 'token-id': id, 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true', ...extra },
      });
      assert.equal(r.status, 201, r.text);
    }
    admin = new RestClient(adminConnection(plat));
  });
  after(async () => { admin?.close(); await plat?.stop(); });

  // Each row: who files what, and what one sync of the approver does with it.
  const cases: { name: string; who: keyof typeof TOKENS; csr: CsrShape; expect: { approved: string } | { ignorable: string } | 'untouched' }[] = [
    { name: 'boot-nodeclient', who: 'bootstrap', csr: { cn: 'system:node:n1' }, expect: { approved: NODE_MESSAGE } },
    { name: 'boot-nodeclient-rsa-usages', who: 'bootstrap', csr: { cn: 'system:node:n1', usages: ['key encipherment', 'client auth', 'digital signature'] }, expect: { approved: NODE_MESSAGE } },
    // ML-DSA keys: the node client check includes the ML-DSA usage rule (no key encipherment).
    { name: 'boot-nodeclient-ml-dsa', who: 'bootstrap', csr: { cn: 'system:node:n1', mlDsa: true }, expect: { approved: NODE_MESSAGE } },
    { name: 'boot-nodeclient-ml-dsa-key-encipherment', who: 'bootstrap', csr: { cn: 'system:node:n1', mlDsa: true, usages: ['key encipherment', 'client auth', 'digital signature'] }, expect: 'untouched' },
    { name: 'stranger-nodeclient', who: 'stranger', csr: { cn: 'system:node:n2' }, expect: { ignorable: 'recognized csr "stranger-nodeclient" as [nodeclient] but subject access review was not approved' } },
    { name: 'node1-self', who: 'node1', csr: { cn: 'system:node:node1' }, expect: { approved: SELF_MESSAGE } },
    { name: 'node1-for-node2', who: 'node1', csr: { cn: 'system:node:node2' }, expect: { ignorable: 'recognized csr "node1-for-node2" as [nodeclient] but subject access review was not approved' } },
    { name: 'node9-self-falls-back', who: 'node9', csr: { cn: 'system:node:node9' }, expect: { approved: NODE_MESSAGE } },
    { name: 'node8-self-nothing', who: 'node8', csr: { cn: 'system:node:node8' }, expect: { ignorable: 'recognized csr "node8-self-nothing" as [selfnodeclient nodeclient] but subject access review was not approved' } },
    { name: 'apiserver-client', who: 'bootstrap', csr: { cn: 'system:node:n1', signer: SIGNER_APISERVER_CLIENT }, expect: 'untouched' },
    { name: 'nodeagent-serving', who: 'node1', csr: { cn: 'system:node:node1', dns: ['node1.example'], signer: SIGNER_NODEAGENT_SERVING, usages: ['digital signature', 'server auth'] }, expect: 'untouched' },
    { name: 'custom-signer', who: 'bootstrap', csr: { cn: 'system:node:n1', signer: 'example.com/nodes' }, expect: 'untouched' },
    { name: 'dns-san', who: 'bootstrap', csr: { cn: 'system:node:n1', dns: ['n1.example'] }, expect: 'untouched' },
    { name: 'server-usage', who: 'bootstrap', csr: { cn: 'system:node:n1', usages: ['digital signature', 'server auth'] }, expect: 'untouched' },
    { name: 'wrong-org', who: 'bootstrap', csr: { cn: 'system:node:n1', org: ['system:masters'] }, expect: 'untouched' },
    { name: 'no-node-prefix', who: 'bootstrap', csr: { cn: 'n1' }, expect: 'untouched' },
  ];

  it('one sync per case: approves what the SubjectAccessReview allows, retries quietly what it does not, ignores the rest', async () => {
    const approve = sarApprover(admin);
    // As the work queue would: a sync on the latest state, again after losing a write race (plat
    // all may run its own approver on the same CSRs).
    const sync = async (name: string) => {
      for (let attempt = 0; ; attempt++) {
        try {
          return await approve(await read(name));
        } catch (e) {
          if (attempt < 5 && e instanceof Error && e.message.startsWith('error updating approval for csr: Operation cannot be fulfilled')) continue;
          throw e;
        }
      }
    };
    for (const c of cases) {
      await file(c.who, c.name, c.csr);
      if (typeof c.expect === 'object' && 'ignorable' in c.expect) {
        await assert.rejects(sync(c.name), (e: Error) => e instanceof IgnorableError && e.message === (c.expect as { ignorable: string }).ignorable, c.name);
      } else {
        await sync(c.name);
      }
      const after = await read(c.name);
      if (typeof c.expect === 'object' && 'approved' in c.expect) {
        const [cond, ...more] = after.status?.conditions ?? [];
        assert.equal(more.length, 0, c.name);
        assert.equal(cond?.type, 'Approved', c.name);
        assert.equal(cond?.status, 'True', c.name);
        assert.equal(cond?.reason, 'AutoApproved', c.name);
        assert.equal(cond?.message, c.expect.approved, c.name);
        assert.ok(cond?.lastUpdateTime && Date.parse(cond.lastUpdateTime) > 0, `${c.name}: the server stamps lastUpdateTime`);
      } else {
        assert.deepEqual(after.status?.conditions ?? [], [], `${c.name} stays pending`);
      }
    }
  });

  it('leaves decided CSRs alone and reports SAR, parse and update failures as real errors', async () => {
    const approve = sarApprover(admin);
    const denied = await file('bootstrap', 'already-denied', { cn: 'system:node:n1' });
    denied.status = { conditions: [{ type: 'Denied', status: 'True', reason: 'No', message: 'not this one' }] };
    const put = await plat.admin.put(`${CSRS}/already-denied/approval`, denied);
    assert.equal(put.status, 200, put.text);
    await approve(structuredClone(put.json as Csr));
    assert.deepEqual((await read('already-denied')).status?.conditions?.map((c) => c.type), ['Denied']);

    const pending = await file('bootstrap', 'sar-refused', { cn: 'system:node:n1' });
    const { clientCert: _cert, clientKey: _key, ...anonymous } = adminConnection(plat);
    const asMallory = new RestClient({ ...anonymous, token: TOKENS.mallory });
    try {
      await assert.rejects(sarApprover(asMallory)(structuredClone(pending)), (e: Error) => e instanceof ApiError && e.code === 403 && !(e instanceof IgnorableError));
    } finally { asMallory.close(); }

    const garbage = { ...structuredClone(pending), metadata: { name: 'garbage' }, spec: { ...pending.spec, request: Buffer.from('not a pem').toString('base64') } };
    await assert.rejects(approve(garbage), { message: 'unable to parse csr "garbage": PEM block type must be CERTIFICATE REQUEST' });

    const stale = { ...structuredClone(pending), metadata: { ...pending.metadata, resourceVersion: '1' } };
    await assert.rejects(approve(stale), (e: Error) => e.message.startsWith('error updating approval for csr: Operation cannot be fulfilled on certificatesigningrequests.certificates.platform "sar-refused"'));
  });

  it('approves nothing once told to stop: its SubjectAccessReview and approval carry the run signal', async () => {
    const pending = await file('bootstrap', 'stopped-approver', { cn: 'system:node:n1' });
    const stopped = new AbortController();
    stopped.abort(new Error('leadership lost'));
    await assert.rejects(sarApprover(admin)(structuredClone(pending), stopped.signal), (e: Error) => e.name === 'AbortError' && (e.cause as Error).message === 'leadership lost');
    assert.equal((await read('stopped-approver')).status?.conditions, undefined);
    // The same CSR with a live signal is approved: the abort, not the CSR, kept it pending.
    await sarApprover(admin)(structuredClone(pending), new AbortController().signal);
    assert.deepEqual((await read('stopped-approver')).status?.conditions?.map((c) => c.reason), ['AutoApproved']);
  });

  it('the registered controller auto-approves from the informer and never approves other signers', async () => {
    const h = runController(plat, CsrApprovingController, 'certificatesigningrequest-approving-controller');
    try {
      await file('bootstrap', 'ctl-nodeclient', { cn: 'system:node:c1' });
      await file('stranger', 'ctl-stranger', { cn: 'system:node:c2' });
      await file('bootstrap', 'ctl-apiserver-client', { cn: 'system:node:c1', signer: SIGNER_APISERVER_CLIENT });
      await file('node1', 'ctl-serving', { cn: 'system:node:node1', dns: ['node1.example'], signer: SIGNER_NODEAGENT_SERVING, usages: ['digital signature', 'server auth'] });
      await file('node1', 'ctl-self', { cn: 'system:node:node1' });
      for (const [name, message] of [['ctl-nodeclient', NODE_MESSAGE], ['ctl-self', SELF_MESSAGE]] as const) {
        let csr: Csr | undefined;
        for (let i = 0; i < 100 && !(csr?.status?.conditions?.length); i++) {
          csr = await read(name);
          if (!csr.status?.conditions?.length) await new Promise((r) => setTimeout(r, 100));
        }
        assert.deepEqual(csr?.status?.conditions?.map((c) => [c.type, c.reason, c.message]), [['Approved', 'AutoApproved', message]], name);
      }
      // Recognized but not allowed: retried with backoff, logged only at -v=4, never approved.
      await eventually(() => h.logged('Sync certificate request failed csr="ctl-stranger"', 'as [nodeclient] but subject access review was not approved'), 'the stranger CSR refused');
      assert.deepEqual((await read('ctl-stranger')).status?.conditions ?? [], []);
      assert.ok(!h.lines.some((l) => l.startsWith('E') && l.includes('ctl-stranger')), 'an unapproved SAR is not an error');
      for (const name of ['ctl-apiserver-client', 'ctl-serving']) {
        await eventually(() => h.logged('Finished syncing certificate request', `csr="${name}"`), `${name} synced`);
        assert.deepEqual((await read(name)).status?.conditions ?? [], [], `${name} is never auto-approved`);
      }
    } finally {
      await h.stop();
    }
    // Upstream's words, as operators search for them.
    assert.ok(h.logged('Starting certificate controller', 'name="csrapproving"'), h.lines.join('\n'));
    // The approval's own update event: upstream logs the old object's name under `old`.
    assert.ok(h.logged('Updating certificate request old="ctl-nodeclient"'), h.lines.join('\n'));
    // elapsedTime as Go prints a time.Duration (`812.345µs`, `12.5ms`): what parses back to the same text.
    const elapsed = h.lines.filter((l) => l.includes('Finished syncing certificate request')).map((l) => /elapsedTime="([^"]*)"/.exec(l)?.[1] ?? '');
    assert.ok(elapsed.length > 0);
    for (const e of elapsed) assert.equal(formatDuration(parseDuration(e)), e, `elapsedTime="${e}" is not a Go duration`);
    assert.ok(h.logged('Shutting down certificate controller', 'name="csrapproving"'), h.lines.join('\n'));
  });
});
