// A tap on a hook the command never calls is named at start-up, with the commands that do call
// it: a node-agent subsystem loaded into `plat all`, a signer into `plat apiserver` or into a
// controller manager whose --controllers turn csrsigning off. What each command calls comes from
// its plugins' `calls`; plat's own plugins tap nothing their command leaves uncalled.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { boot, type Profile } from '../../core/boot.js';
import { HOST_CALLED, type HookName } from '../../core/hooks.js';
import { Host } from '../../core/host.js';
import { createLogger } from '../../core/log.js';
import type { Plugin } from '../../core/plugin.js';
import { commandCalls, hooksCalled, onUncalledTaps, type CommandCalls, type UncalledTap } from '../../core/uncalled-taps.js';
import { profiles } from '../../host/profiles.js';
import { roleCalls } from '../../host/role-registry.js';
import { repoRoot, tempDir } from '../helpers/plat.js';

const owner = (name: string, calls: readonly HookName[]): Plugin => ({ name, calls, apply() {} });
const apiserver = owner('Api', ['resources', 'admitValidate']);
const controllers = owner('Controllers', ['controllers', 'sign']);
const commands: Profile[] = [
  { role: 'apiserver', description: '', plugins: [apiserver] },
  { role: 'controller-manager', description: '', plugins: [controllers] },
  { role: 'nodeagent', description: '', plugins: [owner('NodeAgent', ['nodeAgent'])] },
  { role: 'all', description: '', plugins: [apiserver, controllers] },
];

const PLUGIN = `export default {
  name: 'MyPlugin',
  apply(host) {
    host.hooks.nodeAgent.tap('MyPlugin', () => {});
    host.hooks.nodeAgent.tap('MyPlugin', () => {});
    host.hooks.sign.for('example.com/x').tapPromise('MySigner', async () => undefined);
    host.hooks.audit.tapPromise('MyAudit', async () => {});
    host.hooks.configure.tap('MyPlugin', () => {
      host.hooks.admitValidate.tapPromise('MyAdmission', async () => {});
      host.hooks.controllers.tap('MyController', () => {});
    });
    host.hooks.start.tapPromise('MyPlugin', async () => {
      host.hooks.sign.for('example.com/late').tapPromise('MyLateSigner', async () => undefined);
    });
  },
};
`;

async function warningsOf(role: string, known: readonly CommandCalls[] = commands.map(commandCalls), profile = commands.find((c) => c.role === role)!, argv: string[] = []): Promise<string[]> {
  const dir = tempDir();
  writeFileSync(path.join(dir, '.platrc.yaml'), 'plugins: ["./my-plugin.mjs"]\n');
  writeFileSync(path.join(dir, 'my-plugin.mjs'), PLUGIN);
  const lines: string[] = [];
  const { host } = await boot({ profile, commands: known, argv, cwd: dir, logger: createLogger({ write: (l) => lines.push(l) }), version: '0.0.0-test' });
  await host.hooks.shutdown.promise();
  return lines.filter((l) => l.startsWith('W')).map((l) => l.slice(l.indexOf('] ') + 2));
}

describe('taps on hooks the command never calls', () => {
  it('names the tap, the hook, the command and the commands that call it, once each', async () => {
    assert.deepEqual(await warningsOf('all'), [
      'plugin "MyPlugin" (tap "MyAudit") taps hooks.audit, which plat all never calls (no plat command calls it yet): the tap does nothing here',
      'plugin "MyPlugin" taps hooks.nodeAgent, which plat all never calls (it is called by plat nodeagent): the tap does nothing here',
    ]);
  });

  it('names a signer tapped where nothing signs, and taps made in configure and in start', async () => {
    assert.deepEqual(await warningsOf('apiserver'), [
      'plugin "MyPlugin" (tap "MyAudit") taps hooks.audit, which plat apiserver never calls (no plat command calls it yet): the tap does nothing here',
      'plugin "MyPlugin" (tap "MySigner") taps hooks.sign.for("example.com/x"), which plat apiserver never calls (it is called by plat controller-manager and plat all): the tap does nothing here',
      'plugin "MyPlugin" (tap "MyController") taps hooks.controllers, which plat apiserver never calls (it is called by plat controller-manager and plat all): the tap does nothing here',
      'plugin "MyPlugin" taps hooks.nodeAgent, which plat apiserver never calls (it is called by plat nodeagent): the tap does nothing here',
      'plugin "MyPlugin" (tap "MyLateSigner") taps hooks.sign.for("example.com/late"), which plat apiserver never calls (it is called by plat controller-manager and plat all): the tap does nothing here',
    ]);
  });

  it('names a signer tapped where --controllers turns csrsigning off', async () => {
    const cm = profiles['controller-manager']!;
    const args = ['--master=https://127.0.0.1:1', '--secure-port=0', '--leader-elect=false', '--controllers=*,-csrsigning'];
    const signers = (await warningsOf(cm.role, roleCalls, cm, args)).filter((w) => w.includes('hooks.sign'));
    const warning = (tap: string, signer: string) => `plugin "MyPlugin" (tap "${tap}") taps hooks.sign.for("${signer}"), which plat controller-manager never calls while certificatesigningrequest-signing-controller is disabled by --controllers=*,-csrsigning: the tap does nothing here`;
    assert.deepEqual(signers, [warning('MySigner', 'example.com/x'), warning('MyLateSigner', 'example.com/late')]);
  });

  it('names no other command when it is not told the commands', async () => {
    assert.deepEqual((await warningsOf('all', []))[1], 'plugin "MyPlugin" taps hooks.nodeAgent, which plat all never calls: the tap does nothing here');
  });

  for (const profile of Object.values(profiles)) {
    it(`plat ${profile.role}'s own plugins tap only hooks it calls`, () => {
      const host = new Host({ role: profile.role });
      for (const p of profile.plugins) p.apply(host, undefined);
      const uncalled: UncalledTap[] = [];
      onUncalledTaps(host.hooks, hooksCalled(profile.plugins), (t) => uncalled.push(t));
      assert.deepEqual(uncalled, []);
    });
  }

  it('every hook called in the source is declared by some command', () => {
    const declared = new Set(Object.values(profiles).flatMap((p) => [...hooksCalled(p.plugins)]));
    const called = new Set<string>();
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, e.name);
        if (e.isDirectory()) { walk(file); continue; }
        if (!file.endsWith('.ts')) continue;
        const text = readFileSync(file, 'utf8');
        for (const m of text.matchAll(/hooks\.(\w+)\.(?:call|callAsync|promise)\(/g)) called.add(m[1]!);
        for (const m of text.matchAll(/#admit\('(\w+)'/g)) called.add(m[1]!);
        if (/hooks\.sign\.get\(/.test(text)) called.add('sign');
      }
    };
    for (const dir of ['core', 'plugins', 'host']) walk(path.join(repoRoot, dir));
    assert.ok(called.has('admitValidate') && called.has('sign') && called.has('nodeAgent'), [...called].join(', '));
    assert.deepEqual([...called].filter((h) => !declared.has(h as never)), []);
    assert.ok(HOST_CALLED.every((h) => called.has(h)));
  });
});
