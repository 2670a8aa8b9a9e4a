// The API server's admission families on /metrics over HTTPS, as kube-apiserver 1.32 exposes them:
// each phase (step), each admission plugin (controller, for the operations it handles), each call
// of a real admission webhook (its duration, code, rejection kind and code, fail-opens under
// failurePolicy Ignore). Each case scrapes before and after one request and checks what changed;
// the webhook families, fed by CSR creates only, are checked as exact lines.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import tls from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { csrObject, csrPem, CSR_PATH } from '../admission/support.js';
import { allow, deny, webhook, WebhookServer, withConfiguration } from '../admission-webhook/support.js';

const V = 'ValidatingWebhookConfiguration';
const STEP = 'apiserver_admission_step_admission_duration_seconds';
const CONTROLLER = 'apiserver_admission_controller_admission_duration_seconds';

type Scrape = { text: string; lines: Set<string>; values: Map<string, number> };

describe('plat apiserver admission metrics', () => {
  let plat: RunningPlat;
  const server = new WebhookServer();
  let pem: string;
  let masters: string;

  const scrape = async (): Promise<Scrape> => {
    const r = await plat.admin.get('/metrics');
    assert.equal(r.status, 200);
    const lines = new Set(r.text.split('\n'));
    const values = new Map<string, number>();
    for (const l of lines) {
      const m = /^(\S+) (\S+)$/.exec(l);
      if (m && !l.startsWith('#')) values.set(m[1]!, Number(m[2]));
    }
    return { text: r.text, lines, values };
  };
  /** How much a sample grew between two scrapes (absent counts as 0). */
  const delta = (a: Scrape, b: Scrape, sample: string) => (b.values.get(sample) ?? 0) - (a.values.get(sample) ?? 0);
  const has = (s: Scrape, line: string) =>
    assert.ok(s.lines.has(line), `missing: ${line}\n${s.text.split('\n').filter((l) => l.startsWith(line.split(/[{ ]/)[0]!)).join('\n')}`);
  const step = (type: string, op: string, rejected: boolean) => `${STEP}_count{operation="${op}",rejected="${rejected}",type="${type}"}`;
  const controller = (name: string, type: string, op: string, rejected: boolean) =>
    `${CONTROLLER}_count{name="${name}",operation="${op}",rejected="${rejected}",type="${type}"}`;

  before(async () => {
    pem = csrPem('/O=dev/CN=alice');
    masters = csrPem('/O=system:masters/CN=eve');
    server.on('/allow', (review) => allow(review));
    server.on('/deny-bad', (review) => review.request.name.startsWith('bad')
      ? deny(review, { code: 403, reason: 'Forbidden', message: 'no bad names' })
      : allow(review));
    server.on('/broken', () => ({ status: 500, body: 'boom' }));
    server.on('/hang', () => 'hang');
    await server.start();
    plat = await startInProcess();
  });
  after(async () => { await plat?.stop(); await server.stop(); });

  it('exposes the families with upstream help, types and buckets', async () => {
    await withConfiguration(plat.admin, V, 'm-help', [webhook(server, 'help.example.com', '/allow')], async () => {
      assert.equal((await plat.admin.post(CSR_PATH, csrObject('help', 'example.com/signer', pem))).status, 201);
    });
    const s = await scrape();
    has(s, `# HELP ${STEP} [STABLE] Admission sub-step latency histogram in seconds, broken out for each operation and API resource and step type (validate or admit).`);
    has(s, `# TYPE ${STEP} histogram`);
    has(s, `# HELP ${STEP}_summary [ALPHA] Admission sub-step latency summary in seconds, broken out for each operation and API resource and step type (validate or admit).`);
    has(s, `# TYPE ${STEP}_summary summary`);
    has(s, `# HELP ${CONTROLLER} [STABLE] Admission controller latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).`);
    has(s, '# HELP apiserver_admission_webhook_admission_duration_seconds [STABLE] Admission webhook latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).');
    has(s, '# TYPE apiserver_admission_webhook_request_total counter');
    const les = (prefix: string) => s.text.split('\n').filter((l) => l.startsWith(prefix)).map((l) => /le="([^"]+)"/.exec(l)![1]);
    assert.deepEqual(les(`${STEP}_bucket{operation="CREATE",rejected="false",type="validate",`), ['0.005', '0.025', '0.1', '0.5', '1', '2.5', '+Inf']);
    assert.deepEqual(les('apiserver_admission_webhook_admission_duration_seconds_bucket{name="help.example.com",'),
      ['0.005', '0.025', '0.1', '0.5', '1', '2.5', '10', '25', '+Inf']);
    has(s, 'apiserver_admission_webhook_admission_duration_seconds_count{name="help.example.com",operation="CREATE",rejected="false",type="validating"} 1');
    has(s, 'apiserver_admission_webhook_request_total{code="200",name="help.example.com",operation="CREATE",rejected="false",type="validating"} 1');
    assert.ok([...s.lines].some((l) => l.startsWith(`${STEP}_summary_count{operation="CREATE",rejected="false",type="admit"} `)), 'summary count');
    // Upstream dropped the resource labels: the series are by operation.
    assert.ok(!s.text.split('\n').some((l) => l.startsWith('apiserver_admission_') && l.includes('resource=')), 'no resource label on the admission families');
  });

  it('a create: each phase once, the plugins that handle CREATE, each webhook call with its code; Ignore fails open', async () => {
    const hooks = [
      webhook(server, 'allow.example.com', '/allow'),
      webhook(server, 'broken.example.com', '/broken', { failurePolicy: 'Ignore' }),
    ];
    await withConfiguration(plat.admin, V, 'm-create', hooks, async () => {
      const s0 = await scrape();
      assert.equal((await plat.admin.post(CSR_PATH, csrObject('good', 'example.com/signer', pem))).status, 201);
      const s1 = await scrape();
      assert.equal(delta(s0, s1, step('admit', 'CREATE', false)), 1);
      assert.equal(delta(s0, s1, step('validate', 'CREATE', false)), 1);
      assert.equal(delta(s0, s1, `${STEP}_summary_count{operation="CREATE",rejected="false",type="validate"}`), 1);
      assert.equal(delta(s0, s1, controller('ValidatingAdmissionWebhook', 'validate', 'CREATE', false)), 1);
      assert.equal(delta(s0, s1, controller('MutatingAdmissionWebhook', 'admit', 'CREATE', false)), 1);
      assert.equal(delta(s0, s1, controller('CertificateSubjectRestriction', 'validate', 'CREATE', false)), 1);
      // CertificateApproval handles UPDATE only: not observed for a create.
      assert.ok(![...s1.lines].some((l) => l.includes('name="CertificateApproval",operation="CREATE"')), 'CertificateApproval not observed on CREATE');
      // A plugin never runs in a phase it does not tap.
      assert.ok(![...s1.lines].some((l) => l.includes('name="ValidatingAdmissionWebhook"') && l.includes('type="admit"')));
      has(s1, 'apiserver_admission_webhook_request_total{code="200",name="allow.example.com",operation="CREATE",rejected="false",type="validating"} 1');
      // The webhook's HTTP 500 is the call's code; under Ignore it is no rejection.
      has(s1, 'apiserver_admission_webhook_request_total{code="500",name="broken.example.com",operation="CREATE",rejected="false",type="validating"} 1');
      has(s1, 'apiserver_admission_webhook_admission_duration_seconds_count{name="broken.example.com",operation="CREATE",rejected="false",type="validating"} 1');
      has(s1, '# HELP apiserver_admission_webhook_fail_open_count [ALPHA] Admission webhook fail open count, identified by name and broken out for each admission type (validating or mutating).');
      has(s1, 'apiserver_admission_webhook_fail_open_count{name="broken.example.com",type="validating"} 1');
      assert.ok(![...s1.lines].some((l) => l.startsWith('apiserver_admission_webhook_rejection_count{') && l.includes('broken.example.com')), 'fail-open is no rejection');
    });
  });

  it('a webhook rejection: no_error with the webhook\'s code; a failing call under Fail: calling_webhook_error', async () => {
    const hooks = [webhook(server, 'deny.example.com', '/deny-bad'), webhook(server, 'broken-fail.example.com', '/broken')];
    await withConfiguration(plat.admin, V, 'm-deny', hooks, async () => {
      const s0 = await scrape();
      const r = await plat.admin.post(CSR_PATH, csrObject('bad-one', 'example.com/signer', pem));
      assert.equal(r.status, 403, r.text);
      const s1 = await scrape();
      has(s1, '# HELP apiserver_admission_webhook_rejection_count [ALPHA] Admission webhook rejection count, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify an error type (calling_webhook_error or apiserver_internal_error if an error occurred; no_error otherwise) and optionally a non-zero rejection code if the webhook rejects the request with an HTTP status code (honored by the apiserver when the code is greater or equal to 400). Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.');
      has(s1, 'apiserver_admission_webhook_rejection_count{error_type="no_error",name="deny.example.com",operation="CREATE",rejection_code="403",type="validating"} 1');
      has(s1, 'apiserver_admission_webhook_request_total{code="403",name="deny.example.com",operation="CREATE",rejected="true",type="validating"} 1');
      has(s1, 'apiserver_admission_webhook_rejection_count{error_type="calling_webhook_error",name="broken-fail.example.com",operation="CREATE",rejection_code="500",type="validating"} 1');
      has(s1, 'apiserver_admission_webhook_request_total{code="500",name="broken-fail.example.com",operation="CREATE",rejected="true",type="validating"} 1');
      assert.ok(![...s1.lines].some((l) => l.startsWith('apiserver_admission_webhook_fail_open_count{name="broken-fail.example.com"')), 'Fail does not fail open');
      assert.equal(delta(s0, s1, step('validate', 'CREATE', true)), 1);
      assert.equal(delta(s0, s1, step('admit', 'CREATE', false)), 1);
      assert.equal(delta(s0, s1, controller('ValidatingAdmissionWebhook', 'validate', 'CREATE', true)), 1);
    });
  });

  it('an admission plugin\'s rejection: its controller series and the phase are rejected; later plugins are not observed', async () => {
    await withConfiguration(plat.admin, V, 'm-plugin', [webhook(server, 'after.example.com', '/allow')], async () => {
      const s0 = await scrape();
      const r = await plat.admin.post(CSR_PATH, csrObject('masters', 'platform/apiserver-client', masters));
      assert.equal(r.status, 403, r.text);
      const s1 = await scrape();
      assert.equal(delta(s0, s1, controller('CertificateSubjectRestriction', 'validate', 'CREATE', true)), 1);
      assert.equal(delta(s0, s1, step('validate', 'CREATE', true)), 1);
      assert.equal(delta(s0, s1, controller('ValidatingAdmissionWebhook', 'validate', 'CREATE', false)), 0);
      assert.equal(delta(s0, s1, controller('ValidatingAdmissionWebhook', 'validate', 'CREATE', true)), 0);
      assert.ok(![...s1.lines].some((l) => l.includes('name="after.example.com"')), 'the webhook after the refusing plugin was not called');
    });
  });

  it('a call under Ignore whose client went away is counted, but not as a fail-open (upstream leaves context.Canceled out)', async () => {
    const hooks = [webhook(server, 'gone.example.com', '/hang', { timeoutSeconds: 30, failurePolicy: 'Ignore' })];
    await withConfiguration(plat.admin, V, 'm-gone', hooks, async () => {
      const pki = path.join(plat.dataDir, 'pki');
      const socket = tls.connect({
        host: '127.0.0.1', port: Number(new URL(plat.url).port), ALPNProtocols: ['http/1.1'],
        ca: readFileSync(path.join(pki, 'ca.crt'), 'utf8'), cert: readFileSync(path.join(pki, 'admin.crt'), 'utf8'), key: readFileSync(path.join(pki, 'admin.key'), 'utf8'),
      });
      await once(socket, 'secureConnect');
      const body = JSON.stringify(csrObject('gone', 'example.com/signer', pem));
      socket.write(`POST ${CSR_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      for (let i = 0; i < 100 && server.reviewsFor('/hang').length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      assert.equal(server.reviewsFor('/hang').length, 1, 'the webhook called');
      socket.destroy();
      const counted = (s: Scrape) => [...s.lines].some((l) => l.startsWith('apiserver_admission_webhook_request_total{') && l.includes('name="gone.example.com"'));
      let s = await scrape();
      for (let i = 0; i < 100 && !counted(s); i++) { await new Promise((r) => setTimeout(r, 50)); s = await scrape(); }
      assert.ok(counted(s), 'the canceled call is in request_total');
      assert.ok(![...s.lines].some((l) => l.startsWith('apiserver_admission_webhook_fail_open_count{name="gone.example.com"')), 'a canceled call is no fail-open');
    });
  });
});
