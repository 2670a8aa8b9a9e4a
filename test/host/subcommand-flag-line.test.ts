// cobra's --help is a bool flag like any other: `--help=false` runs the command, `-h=true` asks for
// help; and a flag line pflag cannot parse is followed by kubectl's hint (templates.FlagErrorFunc:
// `See '<command path> --help' for usage.`), where the command's own checks (an -o format) are not.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { runPlat } from '../helpers/run-plat.js';
import { tempDir } from '../helpers/plat.js';

const NO_CONFIG = path.join('/nonexistent', 'kubeconfig');
const ran = /kubeconfig \/nonexistent\/kubeconfig: stat \/nonexistent\/kubeconfig: no such file or directory\n$/;

describe('subcommands: --help as a bool flag', () => {
  it('--help=false, -h=false, --help=0 run the command', () => {
    for (const args of [
      ['csr', 'list', '--help=false'],
      ['csr', 'get', 'a', '-h=false'],
      ['csr', 'approve', 'a', '--help=0'],
      ['csr', 'wait', 'a', '--help=False'],
      ['csr', 'create', '--signer', 'a.b/c', '--help=f'],
      ['token', 'create', '--help=false'],
      ['auth', 'can-i', 'get', 'pods', '--help=false'],
    ]) {
      const r = runPlat([...args, '--kubeconfig', NO_CONFIG]);
      assert.equal(r.code, 1, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, ran, args.join(' '));
      assert.equal(r.stdout, '');
    }
    const dir = path.join(tempDir(), 'ca');
    const r = runPlat(['ca', 'init', '--dir', dir, '--help=false']);
    assert.deepEqual([r.code, r.stderr], [0, '']);
    assert.ok(existsSync(path.join(dir, 'ca.key')));
  });

  it('--help=true and -h=1 print the help', () => {
    for (const args of [['csr', 'approve', 'a', '--help=true'], ['ca', 'init', '-h=1']]) {
      const r = runPlat(args);
      assert.deepEqual([r.code, r.stderr], [0, ''], args.join(' '));
      assert.match(r.stdout, /\nUsage:\n {2}plat /);
    }
  });
});

describe("kubectl's hint after a flag line that does not parse", () => {
  it('names the command path, for each kind of pflag error', () => {
    for (const [args, message] of [
      [['csr', 'approve', 'a', '--foo'], 'unknown flag: --foo'],
      [['csr', 'list', '-z'], "unknown shorthand flag: 'z' in -z"],
      [['csr', 'approve', 'a', '--force=maybe'], 'invalid argument "maybe" for "--force" flag: strconv.ParseBool: parsing "maybe": invalid syntax'],
      [['csr', 'get', 'a', '--kubeconfig'], 'flag needs an argument: --kubeconfig'],
      [['ca', 'init', '--days=x'], 'invalid argument "x" for "--days" flag: strconv.ParseInt: parsing "x": invalid syntax'],
      [['token', 'create', '--bogus'], 'unknown flag: --bogus'],
      [['auth', 'can-i', 'get', 'pods', '--bogus'], 'unknown flag: --bogus'],
    ] as const) {
      const r = runPlat([...args]);
      const command = `plat ${args[0]} ${args[1]}`;
      assert.deepEqual([r.code, r.stdout, r.stderr], [2, '', `${command}: ${message}\nSee '${command} --help' for usage.\n`], args.join(' '));
    }
  });

  it("not after the command's own checks (kubectl's -o check says no more)", () => {
    const r = runPlat(['csr', 'approve', 'a', '-o', 'bad']);
    assert.deepEqual([r.code, r.stderr], [2, 'plat csr approve: invalid argument "bad" for "-o, --output" flag: "bad" is not one of: json, yaml, name\n']);
  });
});

describe('flags before any subcommand', () => {
  it('--help with any value prints the group usage, as cobra does for a command that only groups others', () => {
    for (const args of [['csr', '--help=false'], ['ca', '--help=true'], ['token', '-h=0'], ['auth', '--help']]) {
      const r = runPlat(args);
      assert.deepEqual([r.code, r.stderr], [0, ''], args.join(' '));
      assert.match(r.stdout, /^Usage:\n {2}plat /);
    }
  });

  it("flags before the subcommand's name go to it, as cobra's Find and argsMinusFirstX take them", () => {
    for (const args of [
      ['csr', '--help=false', 'list', '--kubeconfig', NO_CONFIG],
      ['csr', '--kubeconfig', NO_CONFIG, 'get', 'a'],
      ['csr', `--kubeconfig=${NO_CONFIG}`, '-h=false', 'approve', 'a'],
      ['token', `--kubeconfig=${NO_CONFIG}`, 'create'],
    ]) {
      const r = runPlat(args);
      assert.equal(r.code, 1, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, ran, args.join(' '));
    }
    const dir = path.join(tempDir(), 'ca');
    const r = runPlat(['ca', '--dir', dir, 'init', '--days=3']);
    assert.deepEqual([r.code, r.stderr], [0, '']);
    assert.ok(existsSync(path.join(dir, 'ca.key')));
    // A flag without '=' takes the next word as its value, so no subcommand is named: the group's line.
    const bogus = runPlat(['csr', '--foo', 'list']);
    assert.deepEqual([bogus.code, bogus.stderr], [2, "plat csr: unknown flag: --foo\nSee 'plat csr --help' for usage.\n"]);
    const help = runPlat(['csr', '--help', 'list']);
    assert.deepEqual([help.code, help.stderr], [0, '']);
    assert.match(help.stdout, /^Usage:\n {2}plat csr /);
  });

  it('another flag is an unknown flag, with the hint for the group', () => {
    for (const group of ['csr', 'ca', 'token', 'auth']) {
      const r = runPlat([group, '--foo']);
      assert.deepEqual([r.code, r.stdout, r.stderr], [2, '', `plat ${group}: unknown flag: --foo\nSee 'plat ${group} --help' for usage.\n`], group);
    }
  });
});
