// --admission-control-config-file as upstream's ReadAdmissionConfiguration reads it: the file is
// decoded, its entries are not checked, and only enabled plugins' entries are ever looked at (the
// first of a name; `configuration` before `path`). A file without kind or apiVersion is refused with
// the serializer's words, quoting the file.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { StartupError } from '../../core/plugin.js';
import { startInProcess, tempDir } from '../helpers/plat.js';

const HEAD = 'apiVersion: apiserver.platform/v1\nkind: AdmissionConfiguration\n';
const WEBHOOK_REFUSAL = '--admission-control-config-file: configuration of ValidatingAdmissionWebhook (WebhookAdmissionConfiguration) is not supported by plat';
const WEBHOOK_CONFIGURATION = '  configuration:\n    apiVersion: apiserver.platform/v1\n    kind: WebhookAdmissionConfiguration\n';

/** [what, file content, extra flags, start-up error (undefined: it starts)]. */
const cases: [string, string, string[], string | undefined][] = [
  ['an unknown plugin name', `${HEAD}plugins:\n- name: NoSuchPlugin\n  configuration: {}\n`, [], undefined],
  ['an entry without a name', `${HEAD}plugins:\n- path: nowhere.yaml\n`, [], undefined],
  ['both path and configuration', `${HEAD}plugins:\n- name: NodeRestriction\n  path: nowhere.yaml\n  configuration: {}\n`, [], undefined],
  ['a missing path file of a plugin that is not enabled', `${HEAD}plugins:\n- name: AlwaysDeny\n  path: nowhere.yaml\n`, [], undefined],
  ['a disabled plugin\'s configuration', `${HEAD}plugins:\n- name: ValidatingAdmissionWebhook\n${WEBHOOK_CONFIGURATION}`,
    ['--disable-admission-plugins=ValidatingAdmissionWebhook'], undefined],
  ['duplicate names: the first entry wins', `${HEAD}plugins:\n- name: ValidatingAdmissionWebhook\n- name: ValidatingAdmissionWebhook\n${WEBHOOK_CONFIGURATION}`, [], undefined],
  ['duplicate names: the first entry wins, refused', `${HEAD}plugins:\n- name: ValidatingAdmissionWebhook\n${WEBHOOK_CONFIGURATION}- name: ValidatingAdmissionWebhook\n`, [], WEBHOOK_REFUSAL],
  ['configuration is preferred to path', `${HEAD}plugins:\n- name: ValidatingAdmissionWebhook\n  path: nowhere.yaml\n${WEBHOOK_CONFIGURATION}`, [], WEBHOOK_REFUSAL],
  ['an unversioned legacy plugin configuration', 'imagePolicy:\n  kubeConfigFile: /nowhere\n', [], undefined],
  ['no apiVersion', 'kind: AdmissionConfiguration\nplugins: []\n', [],
    'failed to apply admission: failed to read plugin config: Object \'apiVersion\' is missing in \'kind: AdmissionConfiguration\nplugins: []\n\''],
  ['no kind', 'apiVersion: apiserver.platform/v1\nplugins: []\n', [],
    'failed to apply admission: failed to read plugin config: Object \'Kind\' is missing in \'apiVersion: apiserver.platform/v1\nplugins: []\n\''],
  ['neither', 'plugins: []\n', [], 'failed to apply admission: failed to read plugin config: Object \'Kind\' is missing in \'plugins: []\n\''],
];

describe('--admission-control-config-file', () => {
  let dir: string;
  before(() => { dir = tempDir('plat-admission-config-'); });
  after(() => rmSync(dir, { recursive: true, force: true }));

  cases.forEach(([what, content, flags, error], i) => {
    it(`${what}: ${error === undefined ? 'starts' : 'is refused'}`, async () => {
      const file = path.join(dir, `admission-${i}.yaml`);
      writeFileSync(file, content);
      const args = [`--admission-control-config-file=${file}`, ...flags];
      if (error !== undefined) {
        await assert.rejects(startInProcess({ args }), (e: unknown) => {
          assert.ok(e instanceof StartupError, String(e));
          assert.equal(e.message, error);
          return true;
        });
        return;
      }
      const plat = await startInProcess({ args });
      await plat.stop();
    });
  });

  it('a missing path file of an enabled plugin is refused', async () => {
    const file = path.join(dir, 'enabled-missing.yaml');
    writeFileSync(file, `${HEAD}plugins:\n- name: NodeRestriction\n  path: nowhere.yaml\n`);
    await assert.rejects(startInProcess({ args: [`--admission-control-config-file=${file}`, '--enable-admission-plugins=NodeRestriction'] }),
      (e: unknown) => e instanceof StartupError && e.message.includes(path.join(dir, 'nowhere.yaml')));
  });
});
