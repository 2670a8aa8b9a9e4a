// A flag value from the config file is known by its file and field (a JSON pointer, as the file's
// other errors name places): flags.sourceOf said only the file, and a problem with a value set in
// a role section (`roles.<role>.flags`) did not say which section or key.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';
import { boot, type Profile } from '../../core/boot.js';
import { createLogger } from '../../core/log.js';
import { isStartupError } from '../../core/plugin.js';
import { tempDir } from '../helpers/plat.js';

const profile: Profile = {
  role: 'controller-manager', description: 'one flag of its own', plugins: [{
    name: 'Flagged',
    apply: (host) => { host.hooks.flags.tap('Flagged', (f) => f.define({ name: 'retries', type: 'int', help: 'h', section: 'Misc' })); },
  }],
};

function fileWith(yaml: string): { dir: string; file: string } {
  const dir = tempDir();
  const file = path.join(dir, '.platrc.yaml');
  writeFileSync(file, yaml);
  return { dir, file };
}

const quiet = () => createLogger({ write: () => {} });

it('sourceOf names the file and the field of a config-file value, the role section when it set it', async () => {
  const { dir, file } = fileWith('flags: { v: 1, retries: 3 }\nroles:\n  controller-manager: { flags: { v: 2 } }\n  nodeagent: { flags: { v: 4 } }\n');
  const { host, flags } = await boot({ profile, argv: [], cwd: dir, logger: quiet(), version: '0.0.0-test' });
  await host.hooks.shutdown.promise();
  assert.equal(flags.get('v'), 2);
  assert.equal(flags.sourceOf('v'), `${file}: /roles/controller-manager/flags/v`);
  assert.equal(flags.sourceOf('retries'), `${file}: /flags/retries`);
});

it('an unknown flag in a role section names the file, the field and the problem', async () => {
  const { dir, file } = fileWith('roles:\n  controller-manager:\n    flags:\n      x: 1\n');
  const failed = await boot({ profile, argv: [], cwd: dir, logger: quiet(), version: '0.0.0-test' }).then(() => undefined, (e: unknown) => e);
  assert.ok(isStartupError(failed), String(failed));
  assert.equal(failed.exitCode, 1);
  assert.equal(failed.message, `${file}: /roles/controller-manager/flags/x: unknown flag "x"`);
});
