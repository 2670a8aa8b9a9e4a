// `plat <group> <sub> --help`: the subcommand's own help (description, usage line, every flag with
// its type, default and help), on stdout with exit 0, as kubectl's subcommands answer --help; and
// cobra's precedence: --help wins over arguments and over values only the command would refuse,
// not over a flag line that does not parse.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AUTH_HELP } from '../../host/commands/auth.js';
import { CA_HELP } from '../../host/commands/ca.js';
import { CSR_HELP } from '../../host/commands/csr-help.js';
import type { SubcommandHelp } from '../../host/commands/subcommand-help.js';
import { TOKEN_HELP } from '../../host/commands/token.js';
import { formatDefault } from '../../core/flags/help.js';
import { runPlat } from '../helpers/run-plat.js';

const GROUPS: Record<string, Readonly<Record<string, SubcommandHelp>>> = { csr: CSR_HELP, ca: CA_HELP, token: TOKEN_HELP, auth: AUTH_HELP };

/** The text with runs of blanks and line breaks as one space: the help column is wrapped. */
const flat = (s: string) => s.replace(/\s+/g, ' ');

describe('plat <group> <sub> --help', () => {
  for (const [group, subs] of Object.entries(GROUPS)) {
    for (const [sub, help] of Object.entries(subs)) {
      it(`plat ${group} ${sub} --help and -h: its description, usage line and every flag it defines`, () => {
        const specs = help.flags().specs();
        assert.ok(specs.length > 0);
        for (const flag of ['--help', '-h']) {
          const r = runPlat([group, sub, flag]);
          assert.deepEqual([r.code, r.stderr], [0, ''], `${group} ${sub} ${flag}`);
          assert.ok(r.stdout.startsWith(help.long.split('\n')[0]!), r.stdout);
          assert.ok(r.stdout.endsWith(`\nUsage:\n  ${help.use}\n`), r.stdout);
          assert.ok(r.stdout.includes('\nOptions:\n'), r.stdout);
          const text = flat(r.stdout);
          for (const spec of specs) {
            assert.notEqual(spec.help.trim(), '', `--${spec.name} of plat ${group} ${sub} has no help text`);
            const name = spec.shorthand ? `-${spec.shorthand}, --${spec.name}` : `--${spec.name}`;
            assert.match(r.stdout, new RegExp(`^ +${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[ \\[]`, 'm'), `${name} in plat ${group} ${sub} ${flag}`);
            const def = formatDefault(spec);
            assert.ok(text.includes(flat(spec.help + (def === undefined ? '' : ` (default ${def})`))), `help and default of --${spec.name}:\n${r.stdout}`);
          }
        }
      });
    }
  }

  // cobra parses every flag, then answers --help before the command runs: arguments it would
  // refuse, and values only its Complete/Validate checks (an -o format), do not matter.
  it('--help after arguments and values the command would refuse still prints the help', () => {
    for (const args of [
      ['csr', 'approve', 'a', '--force', '--help'],
      ['csr', 'get', 'a', 'b', '-w', '--help'],
      ['csr', 'wait', '-h'],
      ['csr', 'create', '--duration', '1m', '--help'],
      ['ca', 'init', '--days', '0', '-h'],
      ['token', 'create', 'extra', '--groups', 'nope', '--help'],
      ['auth', 'can-i', '-qh'],
    ]) {
      const r = runPlat(args);
      assert.deepEqual([r.code, r.stderr], [0, ''], args.join(' '));
      assert.ok(r.stdout.endsWith(`Usage:\n  ${GROUPS[args[0]!]![args[1]!]!.use}\n`), r.stdout);
    }
  });

  // `kubectl certificate approve --bogus --help` (and `--help --bogus`): "unknown flag: --bogus",
  // not the help: cobra's ParseFlags fails before it looks at --help.
  it('a flag line that does not parse is an error, with --help before or after it', () => {
    for (const [args, message] of [
      [['csr', 'approve', '--bogus', '--help'], "plat csr approve: unknown flag: --bogus\nSee 'plat csr approve --help' for usage.\n"],
      [['csr', 'approve', '--help', '--bogus'], "plat csr approve: unknown flag: --bogus\nSee 'plat csr approve --help' for usage.\n"],
      [['ca', 'sign', '--help', '--duration', 'soon'], 'plat ca sign: invalid argument "soon" for "--duration" flag: time: invalid duration "soon"\nSee \'plat ca sign --help\' for usage.\n'],
      [['token', 'create', '--help', '--bogus'], "plat token create: unknown flag: --bogus\nSee 'plat token create --help' for usage.\n"],
      [['auth', 'can-i', '-h', '--bogus'], "plat auth can-i: unknown flag: --bogus\nSee 'plat auth can-i --help' for usage.\n"],
    ] as const) {
      const r = runPlat([...args]);
      assert.deepEqual([r.code, r.stdout, r.stderr], [2, '', message], args.join(' '));
    }
  });

  it('after --, --help is an argument', () => {
    const r = runPlat(['ca', 'sign', '--', '--help']);
    assert.deepEqual([r.code, r.stdout, r.stderr], [2, '', 'plat ca sign: unexpected argument "--help"\n']);
  });
});
