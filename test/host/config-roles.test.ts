// `plat all` does the work of `plat apiserver` and `plat controller-manager` but reads only
// `roles.all` of the config file: sections of those roles are named at start-up, key by key,
// instead of being ignored silently; other roles' sections (a shared file) are not.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { boot, type Profile } from '../../core/boot.js';
import { createLogger } from '../../core/log.js';
import { profiles } from '../../host/profiles.js';
import { tempDir } from '../helpers/plat.js';

const allLike: Profile = { role: 'all', description: 'covers two roles', plugins: [], covers: ['apiserver', 'controller-manager'] };

async function bootWith(profile: Profile, yaml: string): Promise<{ file: string; warnings: string[] }> {
  const dir = tempDir();
  const file = path.join(dir, '.platrc.yaml');
  writeFileSync(file, yaml);
  writeFileSync(path.join(dir, 'my-plugin.mjs'), "export default { name: 'MyPlugin', apply() {} };\n");
  const lines: string[] = [];
  const { host } = await boot({ profile, argv: [], cwd: dir, logger: createLogger({ write: (l) => lines.push(l) }), version: '0.0.0-test' });
  await host.hooks.shutdown.promise();
  return { file, warnings: lines.filter((l) => l.startsWith('W')) };
}

describe('config sections plat all does not read', () => {
  it('plat all covers the API server and the controller manager', () => {
    assert.deepEqual(profiles['all']?.covers, ['apiserver', 'controller-manager']);
  });

  it('names the file, the sections and each ignored key', async () => {
    const { file, warnings } = await bootWith(allLike, [
      'roles:',
      '  apiserver: { plugins: ["./my-plugin.mjs"], flags: { v: 3 } }',
      '  controller-manager: {}',
      '  nodeagent: { flags: { v: 2 } }',
      '',
    ].join('\n'));
    assert.equal(warnings.length, 1, warnings.join('\n'));
    assert.ok(warnings[0]!.endsWith(`plat] ${file}: plat all reads /roles/all, not /roles/apiserver or /roles/controller-manager: their plugins are not loaded and their flags not set here (move them to /roles/all, or to the top level, to use them) ignored=["/roles/apiserver/plugins/0 (./my-plugin.mjs)","/roles/apiserver/flags/v","/roles/controller-manager"]`), warnings[0]);
  });

  it('says nothing of a file without those sections, or to a command that reads them', async () => {
    assert.deepEqual((await bootWith(allLike, 'roles:\n  all: { flags: { v: 1 } }\n  nodeagent: { flags: { v: 2 } }\n')).warnings, []);
    const apiserverLike: Profile = { role: 'apiserver', description: 'reads its own section', plugins: [] };
    assert.deepEqual((await bootWith(apiserverLike, 'roles:\n  apiserver: { flags: { v: 1 } }\n')).warnings, []);
  });
});
