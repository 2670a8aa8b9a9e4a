// The `plat` command as a user meets it: --version, --help with the spec's sections and defaults,
// and start-up refusals with exit code 2 (command line) or 1 (config and plugins).
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { startProcess, tempDir } from '../helpers/plat.js';
import { bootRefusal } from '../helpers/boot-refusal.js';
import { runPlat, type Finished } from '../helpers/run-plat.js';
import { helpSections } from '../helpers/help-sections.js';
import { APISERVER_FLAG_SECTIONS } from '../../host/flag-catalogue/apiserver.js';
import { CONTROLLER_MANAGER_FLAG_SECTIONS } from '../../host/flag-catalogue/controller-manager.js';
import { NODEAGENT_FLAG_SECTIONS } from '../../host/flag-catalogue/nodeagent.js';

describe('plat command line', () => {
  it('prints its version', () => {
    const r = runPlat(['--version']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^plat v1\.32\.0\+plat\.\d+\.\d+\.\d+\n$/);
    assert.equal(runPlat(['apiserver', '--version']).stdout, r.stdout);
    // --version=raw: Go's %#v of the version.Info /version serves, as verflag prints it.
    assert.match(runPlat(['apiserver', '--version=raw']).stdout,
      /^version\.Info\{Major:"1", Minor:"32", GitVersion:"v1\.32\.0\+plat\.\d+\.\d+\.\d+", GitCommit:"plat", GitTreeState:"clean", BuildDate:"[^"]+", GoVersion:"node[^"]+", Compiler:"plat", Platform:"[^"]+"\}\n$/);
  });

  it('prints usage without a role (exit 2) and with help (exit 0)', () => {
    const none = runPlat([]);
    assert.equal(none.code, 2);
    assert.match(none.stdout, /Usage:\n  plat <role> \[flags\]/);
    assert.equal(runPlat(['help']).code, 0);
  });

  it('prints a command\'s usage on stdout when asked or given no subcommand (exit 0) and names an unknown subcommand (exit 2)', () => {
    for (const [args, usage] of [[['token', '--help'], 'plat token create'], [['auth', '-h'], 'plat auth can-i'], [['ca', 'help'], 'plat ca init']] as const) {
      const r = runPlat([...args]);
      assert.equal(r.code, 0, args.join(' '));
      assert.ok(r.stdout.includes(usage), r.stdout);
    }
    // No subcommand: help, as cobra gives for a command without Run and `kubectl certificate` for itself.
    for (const [command, usage] of [['ca', 'plat ca init'], ['token', 'plat token create'], ['auth', 'plat auth can-i'], ['csr', 'plat csr create']] as const) {
      const r = runPlat([command]);
      assert.deepEqual([r.code, r.stderr], [0, ''], command);
      assert.ok(r.stdout.includes(usage), r.stdout);
    }
    const unknown = runPlat(['token', 'revoke']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /^plat token: unknown command "revoke"\nUsage:/);
  });

  it('apiserver --help groups flags by the spec sections with the spec defaults', () => {
    const r = runPlat(['apiserver', '--help']);
    assert.equal(r.code, 0, r.stderr);
    const out = r.stdout;
    for (const section of ['Admission', 'Serving, network and process', 'Limits and timeouts of requests', 'Authentication options',
      'Authorization options', 'Audit options', 'Store, encryption and leadership', 'Versions, features, metrics and logging']) {
      assert.match(out, new RegExp(`^${section.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:?$`, 'm'), `section ${section}`);
    }
    const line = (flag: string) => out.split('\n').find((l) => new RegExp(`--${flag}\\b`).test(l)) ?? '';
    assert.match(line('secure-port'), /int/);
    assert.match(out, /--secure-port int[\s\S]*?\(default 6443\)/);
    assert.match(out, /--request-timeout duration[\s\S]*?\(default 1m0s\)/);
    assert.match(out, /--store-compaction-interval duration[\s\S]*?\(default 5m0s\)/);
    assert.match(out, /--cert-dir string[\s\S]*?\(default "\/var\/run\/platform"\)/);
    assert.match(out, /--authorization-mode strings[\s\S]*?\(default \[AlwaysAllow\]\)/);
    assert.match(out, /--anonymous-auth[\s\S]*?\(default true\)/);
    assert.match(out, /--egress-selector-config-file string[\s\S]*?not supported yet/);
  });

  it('all --help shows what plat all uses, not the API server\'s defaults', () => {
    const r = runPlat(['all', '--help']);
    assert.equal(r.code, 0, r.stderr);
    // Each flag's text: its line and the wrapped lines under it, up to the next flag or section.
    const blocks = new Map<string, string>();
    let current: string | undefined;
    for (const line of r.stdout.split('\n')) {
      const flag = /^(?: {6}| {2}-\w, )--([\w-]+)/.exec(line)?.[1];
      if (flag) blocks.set(current = flag, line);
      else if (current && /^\s+\S/.test(line)) blocks.set(current, `${blocks.get(current)!} ${line}`);
      else current = undefined;
    }
    const shows = (flag: string, def: string | undefined) => {
      const text = blocks.get(flag)?.replace(/\s+/g, ' ');
      assert.ok(text, `--${flag} in plat all --help`);
      if (def === undefined) assert.doesNotMatch(text, /\(default /, `--${flag}`);
      else assert.ok(text.includes(`(default ${def})`), `--${flag}: ${text}`);
    };
    shows('bind-address', '"127.0.0.1"');
    shows('anonymous-auth', undefined);
    shows('leader-elect', undefined);
    shows('cert-dir', '"<data-dir>/pki"');
    shows('tls-cert-file', '"<data-dir>/pki/apiserver.crt"');
    shows('tls-private-key-file', '"<data-dir>/pki/apiserver.key"');
    shows('client-ca-file', '"<data-dir>/pki/ca.crt"');
    shows('service-account-issuer', '[https://platform.default.svc.cluster.local]');
    shows('service-account-key-file', '[<data-dir>/pki/sa.pub]');
    shows('service-account-signing-key-file', '"<data-dir>/pki/sa.key"');
    shows('cluster-signing-cert-file', '"<data-dir>/pki/ca.crt"');
    shows('cluster-signing-key-file', '"<data-dir>/pki/ca.key"');
    shows('service-account-private-key-file', '"<data-dir>/pki/sa.key"');
    shows('root-ca-file', '"<data-dir>/pki/ca.crt"');
  });

  it('suggests plat\'s name for an upstream kube* flag the spec renames', async () => {
    for (const [role, flag, ours] of [['controller-manager', 'kubeconfig', 'platconfig'], ['controller-manager', 'kube-api-qps', 'plat-api-qps'],
      ['nodeagent', 'kubeconfig', 'platconfig']] as const) {
      const r = await bootRefusal(role, [`--${flag}`, 'x']);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, new RegExp(`unknown flag: --${flag} \\(did you mean --${ours}\\?\\)`), `${role} --${flag}`);
    }
  });

  const refusals: { name: string; args: string[]; code: number; message: RegExp }[] = [
    { name: 'unknown flag, with a suggestion', args: ['--secure-prot=1'], code: 2, message: /unknown flag: --secure-prot \(did you mean --secure-port\?\)/ },
    { name: 'bad int', args: ['--secure-port=abc'], code: 2, message: /invalid argument "abc" for "--secure-port" flag/ },
    { name: 'bad duration', args: ['--store-compaction-interval=5d'], code: 2, message: /time: unknown unit "d" in duration "5d"/ },
    { name: 'bad enum', args: ['--authorization-mode=Sometimes'], code: 2, message: /Sometimes/ },
    { name: 'a spec flag plat does not implement yet', args: ['--egress-selector-config-file=/etc/egress.yaml'], code: 2, message: /--egress-selector-config-file is not supported: not implemented by plat yet/ },
    { name: 'a positional argument', args: ['extra'], code: 2, message: /^plat apiserver: "plat apiserver" does not take any arguments, got \["extra"\]\n$/ },
    { name: 'a missing flag value', args: ['--cert-dir'], code: 2, message: /flag needs an argument: --cert-dir/ },
  ];
  // Booted in this process (boot refuses before anything starts); the first row as the real process too.
  for (const t of refusals) {
    it(`refuses ${t.name}`, async () => {
      const r = await bootRefusal('apiserver', ['--data-dir', tempDir(), ...t.args]);
      assert.equal(r.code, t.code, r.stderr);
      assert.match(r.stderr, t.message);
    });
  }

  it(`the real process refuses ${refusals[0]!.name}`, () => {
    const r = runPlat(['apiserver', '--data-dir', tempDir(), ...refusals[0]!.args]);
    assert.equal(r.code, refusals[0]!.code, r.stderr);
    assert.match(r.stderr, refusals[0]!.message);
  });

  it('refuses unknown roles', () => {
    const unknown = runPlat(['apiservr']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown role "apiservr"/);
  });

  it('refuses a role or benchmark named like an Object.prototype member as unknown', () => {
    for (const role of ['constructor', 'toString']) {
      const r = runPlat([role]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, new RegExp(`^plat: unknown role "${role}"\\n\\nplat — `));
    }
    const bench = runPlat(['bench', 'constructor']);
    assert.equal(bench.code, 2, bench.stderr);
    assert.equal(bench.stderr, 'plat bench: unknown benchmark "constructor"\n');
  });

  it('refuses a config file that does not match the schema, naming file and JSON path', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'plat.config.json'), JSON.stringify({ plugins: [42], flags: { 'secure-port': 'x' } }));
    const r = runPlat(['apiserver', '--data-dir', dir], { cwd: dir });
    assert.equal(r.code, 1);
    assert.match(r.stderr, new RegExp(`${path.join(dir, 'plat.config.json').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: /plugins/0`));
  });

  it('refuses a bad flag value given in the config file, naming the file and the field', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, '.platrc.yaml'), 'flags:\n  secure-port: notaport\n');
    const r = runPlat(['apiserver', '--data-dir', dir], { cwd: dir });
    assert.equal(r.code, 1, 'a config-file problem, not a command-line one');
    assert.match(r.stderr, /\.platrc\.yaml: \/flags\/secure-port: invalid value "notaport" for flag "secure-port"/);
    writeFileSync(path.join(dir, '.platrc.yaml'), 'roles:\n  apiserver:\n    flags:\n      secure-prot: 1\n');
    const unknown = runPlat(['apiserver', '--data-dir', dir], { cwd: dir });
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /\.platrc\.yaml: \/roles\/apiserver\/flags\/secure-prot: unknown flag "secure-prot" \(did you mean "secure-port"\?\)/);
  });

  it('stops start-up when a plugin throws in apply, naming the plugin', () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'plugins'));
    writeFileSync(path.join(dir, 'plugins', 'boom.mjs'), "export default { name: 'BoomPlugin', apply() { throw new Error('boom'); } };\n");
    writeFileSync(path.join(dir, 'plat.config.mjs'), "export default { plugins: ['./plugins/boom.mjs'] };\n");
    const r = runPlat(['apiserver', '--data-dir', dir], { cwd: dir });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /\/plugins\/0: plugin "\.\/plugins\/boom\.mjs": BoomPlugin failed to apply: boom\n/);
  });

  it('refuses a data dir another plat holds, plainly (exit 1, no stack trace)', async () => {
    const holder = await startProcess();
    try {
      const r = runPlat(['all', '--data-dir', holder.dataDir, '--secure-port', '0']);
      assert.equal(r.code, 1, r.stderr);
      assert.match(r.stderr, new RegExp(`\nplat all: --data-dir \\S+: storage directory \\S+ is in use by process ${holder.child.pid} \\(lock file \\S+\\)\n$`));
      assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
    } finally {
      await holder.stop();
    }
  });

  it('refuses a plugin module that cannot be found', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'plat.config.json'), JSON.stringify({ plugins: ['./missing.mjs'] }));
    const r = runPlat(['apiserver', '--data-dir', dir], { cwd: dir });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /\/plugins\/0: cannot load plugin "\.\/missing\.mjs"/);
  });
});

describe('flag names with underscores', () => {
  // component-base's cli.Run sets cliflag.WordSepNormalizeFunc on every role's flags, the kubelet too.
  for (const [role, args] of [
    ['controller-manager', ['--leader_elect=false', '--plat_api_qps=5', '--controller_shutdown_timeout=3s']],
    ['nodeagent', ['--healthz_bind_address=127.0.0.1', '--address=not-an-ip']],
  ] as const) {
    it(`plat ${role} ${args.join(' ')}`, async () => {
      const r = await bootRefusal(role, args);
      assert.doesNotMatch(r.stderr, /unknown flag/);
      if (role === 'controller-manager') assert.match(r.stderr, /no API server to talk to/);
      else assert.match(r.stderr, /invalid argument "not-an-ip" for "--address" flag/);
    });
  }
});

describe('empty arguments', () => {
  // cobra's Args check (kube-apiserver, kube-controller-manager) rejects only non-empty arguments.
  it('plat controller-manager "" runs; "" x is refused for x', () => {
    const blank = runPlat(['controller-manager', '', '--leader-elect=false', '']);
    assert.equal(blank.code, 2, blank.stderr);
    assert.match(blank.stderr, /no API server to talk to/);
    const word = runPlat(['controller-manager', '', 'x']);
    assert.equal(word.code, 2, word.stderr);
    // cobra's message quotes them all, the empty one too (Go's %q of the []string).
    assert.equal(word.stderr, 'plat controller-manager: "plat controller-manager" does not take any arguments, got ["" "x"]\n');
  });

  // The kubelet checks its flag set's arguments itself: any argument, an empty one too, and before --help.
  it('plat nodeagent refuses any argument as the kubelet does: unknown command, before --help', () => {
    for (const [args, first] of [[['', '--config=/nonexistent/na.yaml'], ''], [['extra', 'more', '--help'], 'extra']] as const) {
      const r = runPlat(['nodeagent', ...args]);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stderr, `plat nodeagent: unknown command ${first}\n`);
    }
  });
});

describe('--help order', () => {
  // cobra + cliflag.NamedFlagSets: the sections in their declared order (the catalogue's, the
  // spec's), each a pflag FlagSet printed sorted by name, whichever plugin defined a flag first.
  for (const [role, sections] of [
    ['controller-manager', CONTROLLER_MANAGER_FLAG_SECTIONS],
    ['apiserver', APISERVER_FLAG_SECTIONS],
    ['nodeagent', NODEAGENT_FLAG_SECTIONS],
    // The controller manager's sections but its own endpoint's, after the API server's.
    ['all', [...APISERVER_FLAG_SECTIONS, ...CONTROLLER_MANAGER_FLAG_SECTIONS.slice(1)]],
  ] as const) {
    it(`plat ${role} --help: the catalogue's sections in order, then Global flags; flags sorted by name in each`, () => {
      const r = runPlat([role, '--help']);
      assert.equal(r.code, 0, r.stderr);
      const printed = helpSections(r.stdout);
      assert.deepEqual(printed.map((p) => p.section), [...sections, 'Global flags']);
      for (const p of printed) assert.deepEqual(p.flags, [...p.flags].sort(), p.section);
    });
  }
});

describe('option errors in upstream\'s words', () => {
  const dir = tempDir();
  const cases: { role: string; args: string[]; code: number; stderr: string | RegExp }[] = [
    // component-base's VerbosityLevelPflag: strconv.ParseUint(s, 10, 31).
    { role: 'controller-manager', args: ['-v=abc'], code: 2, stderr: 'invalid argument "abc" for "-v, --v" flag: strconv.ParseUint: parsing "abc": invalid syntax' },
    { role: 'controller-manager', args: ['--v=-1'], code: 2, stderr: 'invalid argument "-1" for "-v, --v" flag: strconv.ParseUint: parsing "-1": invalid syntax' },
    { role: 'apiserver', args: ['-v', '0x10'], code: 2, stderr: 'invalid argument "0x10" for "-v, --v" flag: strconv.ParseUint: parsing "0x10": invalid syntax' },
    { role: 'apiserver', args: ['-v=2147483648'], code: 2, stderr: 'invalid argument "2147483648" for "-v, --v" flag: strconv.ParseUint: parsing "2147483648": value out of range' },
    { role: 'nodeagent', args: ['--v=+1'], code: 2, stderr: /invalid argument "\+1" for "-v, --v" flag: strconv\.ParseUint: parsing "\+1": invalid syntax$/ },
    // SecureServingOptions.Validate: kube-controller-manager's port is not Required, kube-apiserver's is.
    { role: 'controller-manager', args: ['--master=https://127.0.0.1:1', '--secure-port=70000'], code: 2, stderr: '--secure-port 70000 must be between 1 and 65535, inclusive. It cannot be turned off with 0' },
    { role: 'controller-manager', args: ['--master=https://127.0.0.1:1', '--secure-port=-1'], code: 2, stderr: '--secure-port -1 must be between 0 and 65535, inclusive. 0 for turning off secure port' },
    { role: 'apiserver', args: ['--data-dir', dir, '--secure-port=-1'], code: 2, stderr: '--secure-port -1 must be between 1 and 65535, inclusive. It cannot be turned off with 0' },
    { role: 'apiserver', args: ['--data-dir', dir, '--secure-port=65536'], code: 2, stderr: '--secure-port 65536 must be between 1 and 65535, inclusive. It cannot be turned off with 0' },
    // clientcmd's loading rules: os.Stat's error for a missing explicit file, the wrapped read error otherwise.
    { role: 'controller-manager', args: ['--platconfig=/nonexistent/cm.conf'], code: 1, stderr: '--platconfig=/nonexistent/cm.conf: stat /nonexistent/cm.conf: no such file or directory' },
    { role: 'controller-manager', args: [`--platconfig=${dir}`], code: 1, stderr: `--platconfig=${dir}: error loading config file "${dir}": read ${dir}: is a directory` },
  ];
  const check = (t: typeof cases[number], r: Finished) => {
    assert.equal(r.code, t.code, r.stderr);
    if (typeof t.stderr === 'string') assert.ok(r.stderr.endsWith(`plat ${t.role}: ${t.stderr}\n`), r.stderr);
    else assert.match(r.stderr.trimEnd(), t.stderr);
  };
  // Booted in this process (boot refuses before anything starts); one row of each role as the real process too.
  for (const t of cases) {
    it(`plat ${t.role} ${t.args.join(' ')}`, async () => check(t, await bootRefusal(t.role, t.args)));
  }
  for (const role of ['controller-manager', 'apiserver', 'nodeagent']) {
    const t = cases.find((c) => c.role === role)!;
    it(`the real process: plat ${t.role} ${t.args.join(' ')}`, () => check(t, runPlat([t.role, ...t.args])));
  }
});
