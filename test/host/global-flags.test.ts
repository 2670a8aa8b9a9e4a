// --version and -h, --help as the flags they are upstream (verflag's version value, cobra's help
// bool), parsed with the others: the command lines the pre-scan of argv used to get wrong.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { startInProcess, tempDir } from '../helpers/plat.js';
import { bootRefusal } from '../helpers/boot-refusal.js';
import { runPlat, type Finished } from '../helpers/run-plat.js';
import { dynamicVersionError, parseSemantic } from '../../core/version.js';

const VERSION_LINE = /^plat v1\.32\.0\+plat\.\d+\.\d+\.\d+\S*\n$/;
const NO_API_SERVER = /no API server to talk to/;

describe('--version', () => {
  const cases: { args: string[]; code: number; stdout?: RegExp; stderr?: RegExp }[] = [
    { args: ['--version'], code: 0, stdout: VERSION_LINE },
    ...['true', '1', 't', 'T', 'True', 'TRUE'].map((v) => ({ args: [`--version=${v}`], code: 0, stdout: VERSION_LINE })),
    // false runs the command normally: here, to its complaint about the missing kubeconfig.
    ...['false', '0', 'f', 'False'].map((v) => ({ args: [`--version=${v}`], code: 2, stderr: NO_API_SERVER })),
    { args: ['--version=foo'], code: 2, stderr: /invalid argument "foo" for "--version" flag: strconv\.ParseBool: parsing "foo": invalid syntax\n$/ },
    { args: ['--foo', '--version'], code: 2, stderr: /unknown flag: --foo\n$/ },
    { args: ['--vmodule', '--version'], code: 2, stderr: /invalid argument "--version" for "--vmodule" flag/ },
    { args: ['--version', 'true'], code: 2, stderr: /^plat controller-manager: "plat controller-manager" does not take any arguments, got \["true"\]\n$/ },
    { args: ['--version=v1.33.0'], code: 2, stderr: /invalid argument "v1\.33\.0" for "--version" flag: version "v1\.33\.0" must match major\/minor\/patch of default version "v1\.32\.0\+plat\.[^"]+"\n$/ },
    { args: ['--version=vfoo'], code: 2, stderr: /could not parse "vfoo" as version/ },
    { args: ['--version=v1.32.0-rc.1'], code: 2, stderr: NO_API_SERVER },
    { args: ['--version=v1.32.0-rc.1', '--version'], code: 0, stdout: VERSION_LINE },
  ];
  const check = (t: typeof cases[number], r: Finished) => {
    assert.equal(r.code, t.code, r.stderr);
    if (t.stdout) assert.match(r.stdout, t.stdout);
    else assert.equal(r.stdout, '');
    if (t.stderr) assert.match(r.stderr, t.stderr);
  };
  // What prints the version is answered before boot (host/run-role.ts): the real process. The
  // refusals and the runs come from boot, booted in this process; the first as the real process too.
  for (const t of cases) {
    it(`plat controller-manager ${t.args.join(' ')}`, async () => {
      check(t, t.code === 0 ? runPlat(['controller-manager', ...t.args]) : await bootRefusal('controller-manager', t.args));
    });
  }
  const refused = cases.find((t) => t.code !== 0)!;
  it(`the real process: plat controller-manager ${refused.args.join(' ')}`, () => check(refused, runPlat(['controller-manager', ...refused.args])));

  it('prints the same GitVersion as --version=raw, after the product name', async () => {
    const line = runPlat(['apiserver', '--version']).stdout;
    const raw = runPlat(['apiserver', '--version=raw']).stdout;
    const git = /GitVersion:"([^"]+)"/.exec(raw)?.[1];
    assert.equal(line, `plat ${git}\n`);
    assert.equal(runPlat(['--version']).stdout, line);
  });

  it('--version=vX.Y.Z... is the GitVersion /version serves', async () => {
    const plat = await startInProcess({ args: ['--version=v1.32.0-rc.1+build.7'] });
    try {
      const r = await plat.admin.get('/version');
      assert.equal(r.status, 200);
      assert.equal(r.json.gitVersion, 'v1.32.0-rc.1+build.7');
      assert.equal(r.json.minor, '32');
    } finally {
      await plat.stop();
    }
  });

  it('is not a config-file flag', () => {
    // A file that printed the version at every start would never start anything.
    const dir = tempDir();
    writeFileSync(path.join(dir, 'plat.config.json'), JSON.stringify({ flags: { version: true } }));
    const r = runPlat(['controller-manager'], { cwd: dir });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /plat\.config\.json: \/flags\/version: flag "version" can only be given on the command line/);
  });

  it('accepts its default GitVersion and versions differing only after the patch', () => {
    assert.equal(dynamicVersionError('v1.32.0+plat.1.0.0', 'v1.32.0+plat.1.0.0'), undefined);
    assert.equal(dynamicVersionError('v1.32.0-x', 'v1.32.0+plat.1.0.0'), undefined);
    assert.equal(dynamicVersionError('', 'v1.32.0+plat.1.0.0'), 'version must not be empty');
  });

  const semver: [string, string | undefined][] = [
    ['v1.32.0', undefined],
    ['1.32.0-alpha.1+meta', undefined],
    ['v1.32', 'illegal version string "v1.32"'],
    ['v01.32.0', 'illegal zero-prefixed version component "01" in "v01.32.0"'],
    ['v1.32.0-01', 'illegal zero-prefixed version component "01" in "v1.32.0-01"'],
    ['v1.32.0_x', 'could not parse pre-release/metadata (_x) in version "v1.32.0_x"'],
    ['vx', 'could not parse "vx" as version'],
  ];
  for (const [text, error] of semver) {
    it(`ParseSemantic(${JSON.stringify(text)})`, () => {
      const r = parseSemantic(text);
      assert.equal(typeof r === 'string' ? r : undefined, error);
    });
  }
});

describe('-h, --help', () => {
  for (const role of ['controller-manager', 'apiserver', 'all', 'nodeagent']) {
    it(`plat ${role} --help=true and -h=true print help; --help lists -h, --help and --version as Global flags`, () => {
      // The kubelet refuses an argument before it looks at --help; cobra answers help first.
      for (const args of [['--help=true'], ['-h=true'], ['-h'], ...(role === 'nodeagent' ? [] : [['--help', 'extra']])]) {
        const r = runPlat([role, ...args]);
        assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
        assert.match(r.stdout, /\nGlobal flags:\n\n {2}-h, --help +help for \S+\n {6}--version version\[=true\] +--version, --version=raw prints version information and\s+quits; --version=vX\.Y\.Z\.\.\. sets the reported version\n$/, args.join(' '));
      }
    });
  }

  it('--help=false and -h=false run the command', async () => {
    for (const args of [['--help=false'], ['-h=false'], ['--help=0', '-h=f']]) {
      const r = args.length === 1 ? await bootRefusal('controller-manager', args) : runPlat(['controller-manager', ...args]);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, NO_API_SERVER, args.join(' '));
    }
  });

  it('--help=maybe is a bad bool', async () => {
    const r = await bootRefusal('controller-manager', ['--help=maybe']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /invalid argument "maybe" for "-h, --help" flag: strconv\.ParseBool: parsing "maybe": invalid syntax/);
  });
});
