import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { csvRecord, flagValueString, goIPString, printedValue } from '../../core/flags/print-flags.js';
import { ipFlagProblem } from '../../core/flags/ip.js';
import type { FlagSpec, FlagType } from '../../core/flags/types.js';
import { createLogger } from '../../core/log.js';
import type { Plugin } from '../../core/plugin.js';
import { startInProcess, tempDir } from '../helpers/plat.js';
import { runPlat, startPlat } from '../helpers/run-plat.js';
import { freePort } from '../helpers/plat.js';

const spec = (type: FlagType, extra: Partial<FlagSpec> = {}): FlagSpec => ({ name: 'f', type, help: '', section: 's', ...extra });

test('each flag type prints as its pflag Value.String()', () => {
  const cases: Array<[FlagSpec, unknown, string]> = [
    [spec('string'), 'a b"c', 'a b"c'],
    [spec('string'), undefined, ''],
    [spec('bool'), true, 'true'],
    [spec('bool'), false, 'false'],
    [spec('int'), 6443, '6443'],
    [spec('int'), -1, '-1'],
    [spec('level'), 4, '4'],
    [spec('float'), 0.9, '0.9'],
    [spec('float'), 1e6, '1e+06'],
    [spec('float32'), Math.fround(0.1), '0.1'], // FormatFloat(f, 'g', -1, 32), not the float64 digits
    [spec('float32'), 20, '20'],
    [spec('duration'), 60_000, '1m0s'],
    [spec('duration'), 0, '0s'],
    [spec('duration'), 1.5, '1.5ms'],
    [spec('strings'), [], '[]'],
    [spec('strings'), ['/healthz', '/readyz'], '[/healthz,/readyz]'],
    [spec('stringArray'), ['a,b', ' x', 'q"', ''], '["a,b"," x","q""",]'],
    [spec('stringToString'), {}, '[]'],
    [spec('stringToString'), { b: '2', a: '1,x' }, '["a=1,x",b=2]'],
    [spec('map'), {}, ''],
    [spec('map'), { iss: 'x', aud: 'y' }, 'aud=y,iss=x'],
    [spec('configurationMap'), { 'api/all': 'false', v1: '' }, 'api/all=false,v1='],
    [spec('string', { validate: ipFlagProblem }), '', '<nil>'],
    [spec('string', { validate: ipFlagProblem }), '0.0.0.0', '0.0.0.0'],
    [spec('string', { validate: ipFlagProblem }), ' ::FFFF:127.0.0.1 ', '127.0.0.1'],
    [spec('string', { typeName: 'version' }), '', 'false'],
    [spec('string', { typeName: 'version' }), 'v1.32.0-rc.1', 'v1.32.0-rc.1'],
    [spec('string', { typeName: 'version' }), 'F', 'false'],
    // Upstream's own Value types behind plat's lists.
    [spec('strings', { name: 'eviction-hard' }), ['nodefs.available<10%', 'memory.available<100Mi'], 'memory.available<100Mi,nodefs.available<10%'],
    [spec('strings', { name: 'eviction-soft' }), [], ''],
    [spec('strings', { name: 'register-with-taints' }), ['a=b:NoSchedule', 'c:NoExecute'], 'a=b:NoSchedule,c=:NoExecute'],
    [spec('strings', { name: 'register-with-taints' }), [], ''],
    [spec('stringArray', { name: 'reserved-memory' }), [], ''],
    [spec('stringArray', { name: 'tls-sni-cert-key' }), ['a.crt,a.key:x.com,y.com', 'b.crt,b.key'], '[a.crt,a.key:x.com,y.com;b.crt,b.key]'],
  ];
  for (const [s, v, want] of cases) assert.equal(flagValueString(s, v), want, `${s.type} ${JSON.stringify(v)}`);
});

test('encoding/csv quoting and net.IP text', () => {
  assert.equal(csvRecord(['\\.', '\tx', 'a\nb', 'plain']), '"\\.","\tx","a\nb",plain');
  const ips: Array<[string, string]> = [
    ['::', '::'], ['::1', '::1'], ['2001:DB8:0:0:1:0:0:1', '2001:db8::1:0:0:1'], ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'],
    ['fe80::1:2', 'fe80::1:2'], ['::ffff:10.0.0.1', '10.0.0.1'], ['64:ff9b::192.0.2.1', '64:ff9b::c000:201'], ['x', '<nil>'],
  ];
  for (const [given, want] of ips) assert.equal(goIPString(given), want, given);
});

test('a credential in a flag value is masked', () => {
  assert.equal(printedValue(spec('string', { name: 'manifest-url' }), 'https://u:p@h/pods'), 'https://%3Cmasked%3E@h/pods');
  assert.equal(printedValue(spec('string'), 'https://h/pods'), 'https://h/pods');
  assert.equal(printedValue(spec('stringArray', { name: 'manifest-url-header' }), ['X:1,Auth:Bearer t', 'A: 2']), 'A:<masked>,Auth:<masked>,X:<masked>');
});

test('a flag its plugin marks sensitive prints <masked> when set, whatever its type', () => {
  assert.equal(printedValue(spec('string', { sensitive: true }), 'hunter2'), '<masked>');
  assert.equal(printedValue(spec('string', { sensitive: true }), ''), '', 'unset stays visibly unset');
  assert.equal(printedValue(spec('string', { sensitive: true, default: 'x' }), 'x'), '<masked>', 'a default is a value too');
  assert.equal(printedValue(spec('strings', { sensitive: true }), ['a', 'b']), '<masked>');
  assert.equal(printedValue(spec('strings', { sensitive: true }), []), '[]');
  assert.equal(printedValue(spec('map', { sensitive: true }), { k: 'v' }), '<masked>');
});

test('plat all at -v=1 prints a plugin\'s sensitive flag masked, and its value nowhere', async () => {
  const lines: string[] = [];
  const plugin: Plugin = {
    name: 'SecretHolder',
    apply(host) {
      host.hooks.flags.tap('SecretHolder', (flags) => flags.define({ name: 'secret-holder-token', type: 'string', help: 'a token', section: 'Secret holder', sensitive: true }));
      host.hooks.flags.tap('SecretHolder', (flags) => flags.define({ name: 'secret-holder-note', type: 'string', help: 'not a secret', section: 'Secret holder' }));
    },
  };
  const plat = await startInProcess({ args: ['-v=1', '--controllers=', '--secret-holder-token=s3cr3t-t0ken', '--secret-holder-note=plain'], plugins: [plugin],
    logger: createLogger({ write: (l) => lines.push(l) }) });
  await plat.stop();
  assert.ok(lines.some((l) => l.endsWith('] FLAG: --secret-holder-token="<masked>"')), lines.filter((l) => l.includes('secret-holder')).join('\n'));
  assert.ok(lines.some((l) => l.endsWith('] FLAG: --secret-holder-note="plain"')));
  assert.ok(!lines.some((l) => l.includes('s3cr3t-t0ken')));
});

test('plat all at -v=1 logs every flag once, by name, before its start-up lines; not at -v=0', async () => {
  for (const v of ['1', '0']) {
    const lines: string[] = [];
    const plat = await startInProcess({ args: [`-v=${v}`, '--controllers='], logger: createLogger({ write: (l) => lines.push(l) }) });
    await plat.stop();
    const flagLines = lines.map((l, i) => [l, i] as const).filter(([l]) => / FLAG: --/.test(l));
    if (v === '0') { assert.equal(flagLines.length, 0); continue; }
    const names = flagLines.map(([l]) => /FLAG: --([^=]+)=/.exec(l)![1]!);
    assert.deepEqual(names, [...names].sort(), 'lexicographic, as pflag VisitAll');
    assert.equal(new Set(names).size, names.length, 'each flag once');
    for (const want of ['--v="1"', '--help="false"', '--version="false"', '--bind-address="127.0.0.1"', '--controllers="[]"', '--anonymous-auth="false"']) {
      assert.ok(flagLines.some(([l]) => l.endsWith(`] FLAG: ${want}`)), want);
    }
    // One block, with nothing of start-up before it.
    assert.equal(flagLines[0]![1], 0, lines.slice(0, 3).join('\n'));
    assert.equal(flagLines.at(-1)![1], flagLines.length - 1);
    assert.ok(lines.length > flagLines.length, 'start-up lines follow');
  }
});

test('plat nodeagent at -v=1 logs its flags before its configuration, credentials masked', () => {
  const r = runPlat(['nodeagent', '-v=1', '--exit-on-lock-contention', '--manifest-url=http://user:pw@127.0.0.1:1/pods',
    '--manifest-url-header=Authorization:Bearer s3cret']);
  assert.equal(r.code, 1, r.stderr);
  const lines = r.stderr.split('\n');
  const first = lines.findIndex((l) => l.includes('] FLAG: --'));
  const config = lines.findIndex((l) => l.includes('Effective NodeAgentConfiguration'));
  assert.ok(first >= 0 && config > first, r.stderr.slice(0, 2000));
  assert.ok(lines.every((l, i) => i < config || !l.includes('] FLAG: --')));
  assert.ok(lines.some((l) => l.endsWith('] FLAG: --manifest-url="http://%3Cmasked%3E@127.0.0.1:1/pods"')));
  assert.ok(lines.some((l) => l.endsWith('] FLAG: --manifest-url-header="Authorization:<masked>"')));
  assert.ok(lines.some((l) => l.endsWith('] FLAG: --exit-on-lock-contention="true"')));
  assert.ok(!r.stderr.includes('s3cret') && !r.stderr.includes(':pw@'));
  assert.ok(!runPlat(['nodeagent', '--exit-on-lock-contention']).stderr.includes('FLAG:'));
});

test('plat nodeagent with its verbosity in --config alone logs its flags once, before its configuration, as the kubelet', () => {
  const config = path.join(tempDir(), 'nodeagent.yaml');
  writeFileSync(config, 'apiVersion: nodeagent.config.platform/v1beta1\nkind: NodeAgentConfiguration\nlogging:\n  verbosity: 1\n');
  for (const args of [[], ['-v=1']]) {
    const r = runPlat(['nodeagent', '--config', config, '--exit-on-lock-contention', ...args]);
    assert.equal(r.code, 1, r.stderr);
    const lines = r.stderr.split('\n');
    const flagLines = lines.filter((l) => l.includes('] FLAG: --'));
    const config_ = lines.findIndex((l) => l.includes('Effective NodeAgentConfiguration'));
    assert.equal(flagLines.filter((l) => l.includes('] FLAG: --exit-on-lock-contention=')).length, 1, `${args.join(' ')}: each flag once\n${r.stderr.slice(0, 2000)}`);
    assert.ok(flagLines.some((l) => l.endsWith(`] FLAG: --config=${JSON.stringify(config)}`)), args.join(' '));
    assert.ok(config_ > lines.findIndex((l) => l.includes('] FLAG: --')), 'before the configuration line');
  }
});

test('plat all at -v=1 logs the paths it uses under --data-dir, not the API server\'s defaults', async () => {
  const dir = tempDir();
  const data = path.join(dir, 'data');
  const plat = await startPlat(['all', '--data-dir', data, '--secure-port', String(await freePort()), '-v=1'],
    /FLAG: --v=/);
  try {
    const flag = (name: string) => new RegExp(`] FLAG: --${name}=(".*")$`, 'm').exec(plat.output())?.[1];
    const pki = path.join(data, 'pki');
    assert.equal(flag('cert-dir'), JSON.stringify(pki));
    assert.equal(flag('client-ca-file'), JSON.stringify(path.join(pki, 'ca.crt')));
    assert.equal(flag('service-account-signing-key-file'), JSON.stringify(path.join(pki, 'sa.key')));
    assert.equal(flag('tls-cert-file'), JSON.stringify(path.join(pki, 'apiserver.crt')));
  } finally {
    await plat.stop();
  }
});
