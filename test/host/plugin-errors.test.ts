// Start-up failures of config-file plugins as a plugin author meets them: each names the config
// file, the entry and the plugin, whether the plugin throws in apply, in its configure tap or in
// its start or ready tap; two different plugins of one name are refused, one plugin twice is not.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, it } from 'node:test';
import { boot, type Profile } from '../../core/boot.js';
import { createLogger } from '../../core/log.js';
import { isStartupError, StartupError } from '../../core/plugin.js';
import { repoRoot, tempDir } from '../helpers/plat.js';

const profile: Profile = { role: 'test', description: 'plugin errors under test', plugins: [{ name: 'OwnPlugin', apply() {} }] };

/** Writes the files into a fresh directory and boots the test profile there with its plat.config.mjs. */
async function bootWith(files: Record<string, string>): Promise<{ dir: string; error: unknown; applied: string[]; logged: string }> {
  const dir = tempDir();
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  const applied: string[] = [];
  let logged = '';
  (globalThis as { pluginErrorsApplied?: string[] }).pluginErrorsApplied = applied;
  try {
    await boot({ profile, argv: [], cwd: dir, logger: createLogger({ write: (line) => { logged += line; } }), version: '0.0.0-test' });
    return { dir, error: undefined, applied, logged };
  } catch (error) {
    return { dir, error, applied, logged };
  }
}

function assertStartupError(error: unknown, expected: string): void {
  assert.ok(error instanceof StartupError, `expected a StartupError, got ${String(error)}`);
  assert.equal(error.exitCode, 1);
  assert.equal(error.message, expected);
}

const config = (...entries: string[]) => `export default { plugins: [${entries.join(', ')}] };\n`;

describe('config-file plugins that fail at start-up', () => {
  it('names the file, the entry and the plugin when apply throws', async () => {
    const { dir, error } = await bootWith({
      'plat.config.mjs': config("'./boom.mjs'"),
      'boom.mjs': "export default { name: 'BoomPlugin', apply() { throw new Error('boom'); } };\n",
    });
    assertStartupError(error, `${path.join(dir, 'plat.config.mjs')}: /plugins/0: plugin "./boom.mjs": BoomPlugin failed to apply: boom`);
  });

  it('names a hook that does not exist, and the one meant, when apply taps a misspelt hook', async () => {
    const { dir, error } = await bootWith({
      'plat.config.mjs': config("'./typo.mjs'"),
      'typo.mjs': "export default { name: 'TypoPlugin', apply(host) { host.hooks.admitValidat.tapPromise('TypoPlugin', async () => {}); } };\n",
    });
    assert.ok(error instanceof StartupError, `expected a StartupError, got ${String(error)}`);
    assert.ok(error.message.startsWith(`${path.join(dir, 'plat.config.mjs')}: /plugins/0: plugin "./typo.mjs": TypoPlugin failed to apply: host.hooks has no hook "admitValidat" (did you mean "admitValidate"?); the hooks are flags, configure,`), error.message);
  });

  it('says how to tap the sign hook map when a signer taps it as a hook', async () => {
    const { dir, error } = await bootWith({
      'plat.config.mjs': config("'./map.mjs'"),
      'map.mjs': "export default { name: 'MapSigner', apply(host) { host.hooks.sign.tapPromise('MapSigner', async () => undefined); } };\n",
    });
    assertStartupError(error, `${path.join(dir, 'plat.config.mjs')}: /plugins/0: plugin "./map.mjs": MapSigner failed to apply: host.hooks.sign is keyed by signerName: tap host.hooks.sign.for('<signerName>').tapPromise(name, fn), not host.hooks.sign.tapPromise`);
  });

  it('refuses an async apply, naming the plugin, whether it rejects or not', async () => {
    const { dir, error } = await bootWith({
      'plat.config.mjs': config("'./async.mjs'"),
      'async.mjs': "export default { name: 'AsyncPlugin', async apply() { throw new Error('async boom'); } };\n",
    });
    assertStartupError(error, `${path.join(dir, 'plat.config.mjs')}: /plugins/0: plugin "./async.mjs": AsyncPlugin failed to apply: apply returned a Promise: apply must tap its hooks before it returns (an async apply's taps come too late, its errors unnamed); do asynchronous set-up in an async factory or in a start tap`);
  });

  it('names them when its configure tap throws', async () => {
    const { dir, error } = await bootWith({
      'plat.config.mjs': config("'./ok.mjs'", "'./cfg.mjs'"),
      'ok.mjs': "export default { name: 'OkPlugin', apply(host) { host.hooks.configure.tap('OkPlugin', () => {}); } };\n",
      'cfg.mjs': "export default { name: 'CfgPlugin', apply(host) { host.hooks.configure.tap('CfgPlugin', () => { throw new Error('no CA here'); }); } };\n",
    });
    assertStartupError(error, `${path.join(dir, 'plat.config.mjs')}: /plugins/1: plugin "./cfg.mjs": CfgPlugin failed to configure: no CA here`);
  });

  it('names them when its start tap rejects', async () => {
    const { dir, error } = await bootWith({
      'plat.config.mjs': config("'./start.mjs'"),
      'start.mjs': "export default { name: 'StartPlugin', apply(host) { host.hooks.start.tapPromise('StartPlugin', async () => { throw new Error('port taken'); }); } };\n",
    });
    assertStartupError(error, `${path.join(dir, 'plat.config.mjs')}: /plugins/0: plugin "./start.mjs": StartPlugin failed to start: port taken`);
  });

  it('names them when its ready tap fails, whichever ready tap of several it is, and however it taps', async () => {
    // The ready taps run side by side (a parallel hook): the last one called is not the one that failed.
    for (const tap of [
      "host.hooks.ready.tapPromise('late', async () => { await new Promise((r) => setTimeout(r, 20)); throw new Error('not ready'); })",
      "host.hooks.ready.tap('late', () => { throw new Error('not ready'); })",
      "host.hooks.ready.tapAsync('late', (cb) => setTimeout(() => cb(new Error('not ready')), 20))",
    ]) {
      const { dir, error } = await bootWith({
        'plat.config.mjs': config("'./late.mjs'", "'./fine.mjs'"),
        'late.mjs': `export default { name: 'LatePlugin', apply(host) { ${tap}; } };\n`,
        'fine.mjs': "export default { name: 'FinePlugin', apply(host) { host.hooks.ready.tapPromise('FinePlugin', async () => {}); } };\n",
      });
      assertStartupError(error, `${path.join(dir, 'plat.config.mjs')}: /plugins/0: plugin "./late.mjs": LatePlugin failed to become ready: not ready`);
    }
  });

  it('a tapPromise ready tap that returns no Promise still gets tapable\'s refusal (the naming wrapper does not make one of it)', async () => {
    const { error } = await bootWith({
      'plat.config.mjs': config("'./nopromise.mjs'"),
      'nopromise.mjs': "export default { name: 'NoPromise', apply(host) { host.hooks.ready.tapPromise('NoPromise', () => undefined); } };\n",
    });
    assert.match(String(error), /Tap function \(tapPromise\) did not return promise/);
  });

  it('refuses a second module of a name already taken, naming both entries', async () => {
    const { dir, error } = await bootWith({
      'plat.config.mjs': config("'./one.mjs'", "'./two.mjs'"),
      'one.mjs': "export default { name: 'Signer', apply() {} };\n",
      'two.mjs': "export default { name: 'Signer', apply() {} };\n",
    });
    const file = path.join(dir, 'plat.config.mjs');
    assertStartupError(error, `${file}: /plugins/1: plugin "./two.mjs": the plugin name "Signer" is already taken by ${file}: /plugins/0: plugin "./one.mjs"`);
  });

  it('refuses the name of one of plat\'s own plugins', async () => {
    const { dir, error } = await bootWith({
      'plat.config.mjs': config("'./own.mjs'"),
      'own.mjs': "export default { name: 'OwnPlugin', apply() {} };\n",
    });
    assertStartupError(error, `${path.join(dir, 'plat.config.mjs')}: /plugins/0: plugin "./own.mjs": the plugin name "OwnPlugin" is already taken by one of plat's own plugins`);
  });

  it('applies one module twice with different options', async () => {
    const { error, applied } = await bootWith({
      'plat.config.mjs': config("['./signer.mjs', { id: 'a' }]", "['./signer.mjs', { id: 'b' }]"),
      'signer.mjs': "export default (o) => ({ name: 'Signer', apply() { globalThis.pluginErrorsApplied.push(o.id); } });\n",
    });
    assert.equal(error, undefined);
    assert.deepEqual(applied, ['a', 'b']);
  });

  it('names the entry of a module listed twice whose tap throws, and hands each entry its own options', async () => {
    const twice = "export default (o) => ({ name: 'Twice', apply(host) {\n"
      + "  host.hooks.configure.tap('Twice', ({ pluginOptions }) => { globalThis.pluginErrorsApplied.push(pluginOptions.get('Twice').id); });\n"
      + "  host.hooks.start.tapPromise('Twice', async () => { if (o.fail) throw new Error(`entry ${o.id} cannot start`); });\n"
      + "} });\n";
    const { dir, error, applied } = await bootWith({
      'plat.config.mjs': config("['./twice.mjs', { id: 'a' }]", "['./twice.mjs', { id: 'b', fail: true }]"),
      'twice.mjs': twice,
    });
    assertStartupError(error, `${path.join(dir, 'plat.config.mjs')}: /plugins/1: plugin "./twice.mjs": Twice failed to start: entry b cannot start`);
    assert.deepEqual(applied, ['a', 'b']);

    const configure = await bootWith({
      'plat.config.mjs': config("['./twice.mjs', { id: 'a', fail: true }]", "['./twice.mjs', { id: 'b' }]"),
      'twice.mjs': twice.replace("host.hooks.configure.tap('Twice', ({ pluginOptions }) => {", "host.hooks.configure.tap('Twice', ({ pluginOptions }) => { if (o.fail) throw new Error('bad options');"),
    });
    assertStartupError(configure.error, `${path.join(configure.dir, 'plat.config.mjs')}: /plugins/0: plugin "./twice.mjs": Twice failed to configure: bad options`);
  });

  it('tells configure taps the config file and its directory', async () => {
    const { dir, error, applied } = await bootWith({
      'plat.config.mjs': config("'./where.mjs'"),
      'where.mjs': "export default { name: 'Where', apply(host) { host.hooks.configure.tap('Where', (c) => { globalThis.pluginErrorsApplied.push(c.configFile, c.configDir); }); } };\n",
    });
    assert.equal(error, undefined);
    assert.deepEqual(applied, [path.join(dir, 'plat.config.mjs'), dir]);
  });

  it('logs the config file it found and the plugins it loaded from it', async () => {
    const { dir, error, logged } = await bootWith({
      'plat.config.mjs': config("'./quiet.mjs'"),
      'quiet.mjs': "export default { name: 'QuietPlugin', apply() {} };\n",
    });
    assert.equal(error, undefined);
    assert.ok(logged.includes(`using the config file file=${JSON.stringify(path.join(dir, 'plat.config.mjs'))} plugins=["QuietPlugin"]`), logged);
  });

  it('passes on a StartupError of another copy of plat as it is, with its exit code', async () => {
    // A second module instance of core/plugin.js: what a plugin package with its own plat throws.
    const copy = `${pathToFileURL(path.join(repoRoot, 'dist/core/plugin.js')).href}?second-copy-of-plat`;
    const { error } = await bootWith({
      'plat.config.mjs': config("'./own-copy.mjs'"),
      'own-copy.mjs': `import { StartupError } from ${JSON.stringify(copy)};
export default { name: 'OwnCopyPlugin', apply(host) { host.hooks.configure.tap('OwnCopyPlugin', () => { throw new StartupError('no CA key in ./ca', 7); }); } };
`,
    });
    assert.ok(isStartupError(error), `expected a StartupError, got ${String(error)}`);
    const foreign: unknown = error;
    assert.ok(!(foreign instanceof StartupError), 'the other copy\'s class, recognised by its brand');
    assert.deepEqual([error.message, error.exitCode], ['no CA key in ./ca', 7]);
  });
});
