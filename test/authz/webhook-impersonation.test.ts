// What a Webhook authorizer is asked when a request impersonates: one review per header, with the
// API version upstream's filter sets from the object reference's group version (v1 for uids and
// user extras, none for users, groups and service accounts).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { SarWebhook, as, tempDir, writeKubeconfig, writeTokenFile } from './support.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const webhook = new SarWebhook();
let dir: string;
let plat: RunningPlat;

before(async () => {
  dir = tempDir('plat-authz-impersonation-');
  await webhook.start();
  webhook.answer = ({ spec }) => ({ status: { allowed: spec?.resourceAttributes?.verb === 'impersonate' } });
  plat = await startInProcess({
    args: [
      '--authorization-mode=Webhook', `--authorization-webhook-config-file=${writeKubeconfig(dir, webhook.url, webhook.caPem)}`,
      '--authorization-webhook-version=v1', `--token-auth-file=${writeTokenFile(dir, { impersonator: [] })}`,
    ],
  });
});
after(async () => {
  await plat?.stop();
  await webhook.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('impersonation checks at a Webhook authorizer', () => {
  it('uids and user extras carry version v1; users, groups and service accounts none', async () => {
    const cases: [Record<string, string>, Record<string, string>][] = [
      [{ 'Impersonate-User': 'bob' }, { verb: 'impersonate', resource: 'users', name: 'bob' }],
      [{ 'Impersonate-User': 'system:serviceaccount:ns1:robot' }, { verb: 'impersonate', namespace: 'ns1', resource: 'serviceaccounts', name: 'robot' }],
      [{ 'Impersonate-User': 'carol', 'Impersonate-Group': 'devs' }, { verb: 'impersonate', resource: 'groups', name: 'devs' }],
      [{ 'Impersonate-User': 'dave', 'Impersonate-Uid': 'u1' }, { verb: 'impersonate', group: 'authentication.platform', version: 'v1', resource: 'uids', name: 'u1' }],
      [{ 'Impersonate-User': 'erin', 'Impersonate-Extra-Scopes': 'a' },
        { verb: 'impersonate', group: 'authentication.platform', version: 'v1', resource: 'userextras', subresource: 'scopes', name: 'a' }],
    ];
    for (const [headers, last] of cases) {
      const n = webhook.calls.length;
      const r = await as(plat, 'impersonator').get(CSRS, headers);
      assert.equal(r.status, 403, `the impersonated user may not list: ${r.text}`);
      const checks = webhook.calls.slice(n).filter((c) => c.spec?.user === 'impersonator').map((c) => c.spec.resourceAttributes);
      assert.deepEqual(checks.at(-1), last, JSON.stringify(headers));
    }
  });
});
