// The machine's kubectl and events.platform/v1 Events: `kubectl create -f` of an events/v1 YAML,
// read back through both groups (`get events.v1.events.platform -A`, `-o yaml`), and `get ev`
// still resolving to core/v1, as kubectl prefers the core group for a short name both groups list.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Kubectl } from '../helpers/kubectl.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

const rows = (out: string): string[][] => out.trim().split('\n').map((l) => l.trim().split(/\s{2,}/));

const YAML = `apiVersion: events.platform/v1
kind: Event
metadata:
  name: rotated
  namespace: evv1-test
eventTime: "2026-01-01T00:00:00.000000Z"
reportingController: platform/e2e
reportingInstance: e2e-1
action: Rotate
reason: Rotated
type: Normal
regarding:
  kind: Secret
  namespace: evv1-test
  name: creds
note: credentials rotated
`;

describe('kubectl and events.platform/v1 Events', () => {
  let plat: RunningPlat;
  let k: Kubectl;
  const ok = async (args: string[], input?: string) => {
    const r = await k.run(args, input);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };

  before(async () => {
    plat = await startInProcess();
    k = new Kubectl(plat.kubeconfig);
    await ok(['create', 'namespace', 'evv1-test']);
  });
  after(async () => { await plat?.stop(); });

  it('creates from an events/v1 YAML and reads it through both groups', async () => {
    assert.match(await ok(['create', '-f', '-'], YAML), /^event\.events\.platform\/rotated created$/m);
    const all = rows(await ok(['get', 'events.v1.events.platform', '-A']));
    assert.deepEqual(all[0], ['NAMESPACE', 'LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
    const row = all.find((r) => r[0] === 'evv1-test')!;
    assert.deepEqual(row.slice(2), ['Normal', 'Rotated', 'secret/creds', 'credentials rotated']);
    const v1 = await ok(['get', 'events.events.platform', '-n', 'evv1-test', 'rotated', '-o', 'yaml']);
    assert.match(v1, /^apiVersion: events\.platform\/v1$/m);
    assert.match(v1, /^note: credentials rotated$/m);
    assert.match(v1, /^reportingController: platform\/e2e$/m);
    const core = await ok(['get', 'events', '-n', 'evv1-test', 'rotated', '-o', 'yaml']);
    assert.match(core, /^apiVersion: v1$/m);
    assert.match(core, /^message: credentials rotated$/m);
    assert.match(core, /^reportingComponent: platform\/e2e$/m);
  });

  it('get ev chooses core/v1', async () => {
    const out = await ok(['get', 'ev', '-n', 'evv1-test', 'rotated', '-o', 'jsonpath={.apiVersion} {.message}']);
    assert.equal(out, 'v1 credentials rotated');
  });

  it('refuses an events/v1 YAML without what the strict validation requires, with upstream\'s paths', async () => {
    const r = await k.run(['create', '-f', '-'], YAML.replace('name: rotated', 'name: bare').replace(/^(eventTime|action|type):.*\n/gm, ''));
    assert.notEqual(r.code, 0);
    // Without eventTime, legacyValidateEvent does not ask for action (its old-style branch).
    assert.match(r.stderr, /The Event "bare" is invalid: \n\* eventTime: Required value\n\* type: Invalid value: "": has invalid value: \n/);
  });

  it('deletes through events/v1', async () => {
    await ok(['delete', 'events.events.platform', '-n', 'evv1-test', 'rotated']);
    const r = await k.run(['get', 'ev', '-n', 'evv1-test', 'rotated']);
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /NotFound|not found/);
  });
});
