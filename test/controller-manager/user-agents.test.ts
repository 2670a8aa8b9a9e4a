// The controller manager's User-Agents, as a real plat API server receives them over HTTPS: the
// shape of client-go's rest.DefaultKubernetesUserAgent (`<component>/<gitVersion before any '-'>
// (<GOOS>/<GOARCH>) platform/<commit>`), with kube-controller-manager's `/<name>` per client: the
// informers' "shared-informers", the Lease's "leader-election", the CSR controllers'
// "certificate-controller" (or, with --use-service-account-credentials, the account's username,
// the controller manager's own creating the account and its tokens), and none for the endpoint's
// delegated TokenReviews and SubjectAccessReviews. The API server's logs show it to operators.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { agentsSeen } from '../helpers/agents-seen.js';
import { freePort, startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { startControllerManager, until, writeKubeconfig, type RunningControllerManager } from './support.js';

const CM_TOKEN = 'controller-manager-under-test';
const CALLER_TOKEN = 'caller-of-the-endpoint';
const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const GO_ARCH: Record<string, string> = { x64: 'amd64', arm64: 'arm64' };
// startControllerManager boots version 0.0.0-test: GitVersion v1.32.0+plat.0.0.0-test, cut at its '-'.
const AGENT = `plat-controller-manager/v1.32.0+plat.0.0.0 (${process.platform}/${GO_ARCH[process.arch] ?? process.arch}) platform/plat`;

describe("the controller manager's User-Agents", () => {
  // Every request carrying a bearer token (the controller manager's or its service accounts'). A
  // TokenReview's own evaluation of its token carries no request of its own (no token field on a real request).
  const agents = agentsSeen((req) => req.token === undefined && String(req.headers['authorization'] ?? '').startsWith('Bearer '));
  const fx = fixtures();
  let plat: RunningPlat;
  let kubeconfig: string;
  let pki: string;
  let cm: RunningControllerManager | undefined;

  before(async () => {
    const dir = tempDir();
    const tokens = path.join(dir, 'tokens.csv');
    // The caller of the controller manager's endpoint is not in system:masters, for which the
    // endpoint asks no SubjectAccessReview (upstream's AlwaysAllowGroups).
    writeFileSync(tokens, `${CM_TOKEN},cm-under-test,cm-uid,system:masters\n${CALLER_TOKEN},caller,caller-uid\n`);
    // plat all's own signer stays off: only the controller manager under test signs.
    plat = await startInProcess({ args: ['--authorization-mode=Node,RBAC', '--controllers=*,-csrsigning', '--token-auth-file', tokens], plugins: [agents.plugin] });
    kubeconfig = writeKubeconfig(plat, path.join(dir, 'cm.conf'), { token: CM_TOKEN });
    pki = path.join(plat.dataDir, 'pki');
  });
  after(async () => {
    await cm?.stop();
    await plat?.stop();
  });

  const signed = async (name: string) => {
    const csr = baseCsr(fx, name);
    csr.spec.signerName = 'platform/apiserver-client';
    assert.equal((await plat.admin.post(CSRS, csr)).status, 201);
    const created = (await plat.admin.get(`${CSRS}/${name}`)).json;
    created.status = { conditions: [{ type: 'Approved', status: 'True', reason: 'ByTest', message: 'approved by the test' }] };
    assert.equal((await plat.admin.put(`${CSRS}/${name}/approval`, created)).status, 200);
    await until(async () => (await plat.admin.get(`${CSRS}/${name}`)).json?.status?.certificate, `${name} issued`);
  };

  /** The agent of each kind of request: `rows` are [what, method, path pattern, expected agent]. */
  const assertAgents = (rows: readonly (readonly [string, string, RegExp, string])[]) => {
    for (const [what, method, pattern, expected] of rows) {
      const matching = agents.seen.filter((s) => s.method === method && pattern.test(s.path));
      assert.ok(matching.length > 0, `no ${what} seen: ${JSON.stringify(agents.seen.slice(0, 20))}`);
      assert.deepEqual([...new Set(matching.map((s) => s.agent))], [expected], what);
    }
  };

  it("with its own credentials: shared-informers, leader-election, certificate-controller, and the endpoint's reviews", async () => {
    agents.seen.length = 0;
    cm = await startControllerManager(['--platconfig', kubeconfig, '--bind-address', '127.0.0.1', '--secure-port', String(await freePort()),
      '--authentication-kubeconfig', kubeconfig, '--authorization-kubeconfig', kubeconfig,
      '--cluster-signing-cert-file', path.join(pki, 'ca.crt'), '--cluster-signing-key-file', path.join(pki, 'ca.key')]);
    try {
      await signed('agent-own-credentials');
      // A bearer token on the endpoint: a TokenReview, then a SubjectAccessReview for /metrics
      // (whatever RBAC answers).
      await cm.anonymous.get('/metrics', { authorization: `Bearer ${CALLER_TOKEN}` });
      assertAgents([
        ['wait for /healthz', 'GET', /^\/healthz$/, `${AGENT}/shared-informers`],
        ['CSR list or watch', 'GET', /^\/apis\/certificates\.platform\/v1\/certificatesigningrequests$/, `${AGENT}/shared-informers`],
        ['Lease read', 'GET', /\/leases\/plat-controller-manager$/, `${AGENT}/leader-election`],
        ['CSR status write', 'PUT', /\/certificatesigningrequests\/agent-own-credentials\/status$/, `${AGENT}/certificate-controller`],
        ['TokenReview', 'POST', /\/tokenreviews$/, AGENT],
        ['SubjectAccessReview', 'POST', /\/subjectaccessreviews$/, AGENT],
      ]);
    } finally {
      await cm.stop();
      cm = undefined;
    }
  });

  it("with --use-service-account-credentials: the account's username, and the controller manager's own for the account", async () => {
    agents.seen.length = 0;
    cm = await startControllerManager(['--platconfig', kubeconfig, '--leader-elect=false', '--secure-port=0',
      '--use-service-account-credentials', '--controllers', 'csrsigning',
      '--cluster-signing-cert-file', path.join(pki, 'ca.crt'), '--cluster-signing-key-file', path.join(pki, 'ca.key')]);
    await signed('agent-service-account');
    assertAgents([
      ['service account read', 'GET', /^\/api\/v1\/namespaces\/plat-system\/serviceaccounts\/certificate-controller$/, `${AGENT}/plat-controller-manager`],
      ['TokenRequest', 'POST', /\/serviceaccounts\/certificate-controller\/token$/, `${AGENT}/plat-controller-manager`],
      ['CSR status write', 'PUT', /\/certificatesigningrequests\/agent-service-account\/status$/, `${AGENT}/system:serviceaccount:plat-system:certificate-controller`],
    ]);
  });
});
