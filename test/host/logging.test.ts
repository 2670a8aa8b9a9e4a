// Logging flags: --vmodule raises the level of the loggers its patterns match (klog's rules, a
// logger name in place of a file), for the API server and controller manager (host-owned flags)
// and the node agent (its configuration); the other logging flags of the spec's tables are
// accepted with their defaults and refused, with component-base's messages, where they need what
// plat does not have.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { globToRegExp, parseVModule, vmoduleLevel } from '../../core/log-vmodule.js';
import { createLogger } from '../../core/log.js';
import { Client, freePort, tempDir } from '../helpers/plat.js';
import { bootRefusal } from '../helpers/boot-refusal.js';
import { runPlatAsync, startPlat } from '../helpers/run-plat.js';

describe('--vmodule patterns', () => {
  // Go's path/filepath.Match table (match_test.go), which klog's vmodule uses.
  const matches: [pattern: string, name: string, ok: boolean | 'bad'][] = [
    ['abc', 'abc', true], ['*', 'abc', true], ['*c', 'abc', true], ['a*', 'a', true], ['a*', 'abc', true],
    ['a*', 'ab/c', false], ['a*/b', 'abc/b', true], ['a*/b', 'a/c/b', false],
    ['a*b*c*d*e*/f', 'axbxcxdxe/f', true], ['a*b*c*d*e*/f', 'axbxcxdxexxx/f', true],
    ['a*b*c*d*e*/f', 'axbxcxdxe/xxx/f', false], ['a*b?c*x', 'abxbbxdbxebxczzx', true], ['a*b?c*x', 'abxbbxdbxebxczzy', false],
    ['ab[c]', 'abc', true], ['ab[b-d]', 'abc', true], ['ab[e-g]', 'abc', false], ['ab[^c]', 'abc', false],
    ['ab[^b-d]', 'abc', false], ['ab[^e-g]', 'abc', true], ['a\\*b', 'a*b', true], ['a\\*b', 'ab', false],
    ['a?b', 'a☺b', true], ['a[^a]b', 'a☺b', true], ['a???b', 'a☺b', false], ['[a-ζ]*', 'α', true], ['*[a-ζ]', 'A', false],
    ['a?b', 'a/b', false], ['a*b', 'a/b', false], ['[\\]a]', ']', true], ['[\\-]', '-', true], ['[x\\-]', 'x', true],
    ['[x\\-]', '-', true], ['[x\\-]', 'z', false], ['[\\-x]', 'x', true], ['[\\-x]', '-', true], ['[\\-x]', 'a', false],
    ['[]a]', ']', 'bad'], ['[-]', '-', 'bad'], ['[x-]', 'x', 'bad'], ['[-x]', 'x', 'bad'], ['\\', 'a', 'bad'],
    ['[a-b-c]', 'a', 'bad'], ['[', 'a', 'bad'], ['[^', 'a', 'bad'], ['[^bc', 'a', 'bad'], ['*x', 'xxx', true],
    ['a.b', 'axb', false], ['(a|b)', 'a', false],
  ];
  for (const [pattern, name, ok] of matches) {
    it(`${JSON.stringify(pattern)} against ${JSON.stringify(name)}: ${ok}`, () => {
      const re = globToRegExp(pattern);
      if (ok === 'bad') assert.equal(re, null);
      else assert.equal(re?.test(name), ok);
    });
  }

  it('parses pattern=N lists as component-base does', () => {
    assert.deepEqual(parseVModule('csrsigning=4,plat/*=2,'), [{ filePattern: 'csrsigning', verbosity: 4 }, { filePattern: 'plat/*', verbosity: 2 }]);
    assert.deepEqual(parseVModule(''), []);
    for (const [value, message] of [
      ['a', '"a" does not have the pattern=N format'], ['=1', '"=1" does not have the pattern=N format'],
      ['a=b=1', '"a=b=1" does not have the pattern=N format'], ['a=-1', 'parsing verbosity in "a=-1": strconv.ParseUint: parsing "-1": invalid syntax'],
      ['a=4294967296', 'parsing verbosity in "a=4294967296": strconv.ParseUint: parsing "4294967296": value out of range'],
    ] as const) assert.throws(() => parseVModule(value), { message }, value);
  });

  it('matches the last component of a logger name, or the whole name when the pattern has a slash; first match wins', () => {
    const rules = parseVModule('csr*=4,csrsigning=9,plat/controller-manager/*=2,plat=1');
    assert.equal(vmoduleLevel(rules, 'plat/controller-manager/csrsigning'), 4);
    assert.equal(vmoduleLevel(rules, 'plat/controller-manager/leader'), 2);
    assert.equal(vmoduleLevel(rules, 'plat/controller-manager'), undefined, '"plat/controller-manager/*" needs a child');
    assert.equal(vmoduleLevel(rules, 'plat'), 1);
    assert.equal(vmoduleLevel(rules, 'plat/apiserver'), undefined);
    assert.equal(vmoduleLevel(parseVModule('[=1'), 'plat/['), undefined, 'a malformed pattern matches nothing');
  });
});

describe('the logger with --vmodule', () => {
  it('raises matching loggers only, never lowers -v, and follows a new setting', () => {
    const lines: string[] = [];
    const root = createLogger({ write: (l) => lines.push(l), verbosity: 1 });
    const signing = root.child('controller-manager').child('csrsigning');
    const api = root.child('apiserver');
    const emit = () => {
      lines.length = 0;
      for (const [log, tag] of [[signing, 'signing'], [api, 'api']] as const) for (const v of [1, 3, 5]) log.v(v).info(`${tag}-${v}`);
      return lines.map((l) => l.replace(/^.*\] /, ''));
    };
    assert.deepEqual(emit(), ['signing-1', 'api-1']);
    root.setVModule!(parseVModule('csrsigning=3'));
    assert.deepEqual(emit(), ['signing-1', 'signing-3', 'api-1']);
    root.setVModule!(parseVModule('csrsigning=0'));
    assert.deepEqual(emit(), ['signing-1', 'api-1'], 'a lower module level leaves -v in force');
    root.setVModule!(parseVModule('apiserver=5'));
    assert.deepEqual(emit(), ['signing-1', 'api-1', 'api-3', 'api-5']);
    root.setVerbosity!(3);
    assert.deepEqual(emit(), ['signing-1', 'signing-3', 'api-1', 'api-3', 'api-5']);
  });
});

describe('logging flags of the API server and controller manager', () => {
  /** The client has a static token: with AlwaysAllow, anonymous access is off. */
  async function apiserver(extra: string[]) {
    const dir = tempDir();
    const port = await freePort();
    const tokens = path.join(dir, 'tokens.csv');
    writeFileSync(tokens, 'logging-test-token,tester,tester-uid\n');
    const proc = await startPlat(['apiserver', '--data-dir', path.join(dir, 'data'), '--cert-dir', path.join(dir, 'certs'),
      '--bind-address', '127.0.0.1', '--secure-port', String(port), '--token-auth-file', tokens, ...extra], /Serving securely on/);
    return { proc, client: new Client(`https://127.0.0.1:${port}`, { ca: readFileSync(path.join(dir, 'certs', 'apiserver.crt'), 'utf8'), token: 'logging-test-token' }) };
  }

  it('--vmodule=apiserver=4 logs the API server\'s per-request lines at -v 0; a pattern naming another logger does not', async () => {
    for (const [vmodule, logged] of [['apiserver=4', true], ['plat/apiserver=4', true], ['csrsigning=4', false]] as const) {
      const { proc, client } = await apiserver(['--logging-format=text', '--log-flush-frequency=1s', `--vmodule=${vmodule}`]);
      try {
        assert.equal((await client.get('/version')).status, 200);
        await new Promise((r) => setTimeout(r, 50));
        assert.equal(/plat\/apiserver\] request verb="get" path="\/version"/.test(proc.output()), logged, `${vmodule}:\n${proc.output()}`);
      } finally { await proc.stop(); }
    }
  });

  const refusals: [role: string, args: string[], message: string][] = [
    ['apiserver', ['--logging-format=json'], 'invalid argument "json" for "--logging-format" flag: format: Invalid value: "json": Unsupported log format'],
    ['controller-manager', ['--logging-format='], 'invalid argument "" for "--logging-format" flag: format: Invalid value: "": Unsupported log format'],
    ['apiserver', ['--vmodule=apiserver'], 'invalid argument "apiserver" for "--vmodule" flag: "apiserver" does not have the pattern=N format'],
    ['apiserver', ['--log-text-split-stream'], 'invalid argument "true" for "--log-text-split-stream" flag: options.text.splitStream: Forbidden: Feature LoggingAlphaOptions is disabled'],
    ['controller-manager', ['--log-text-info-buffer-size=1Mi'], 'invalid argument "1Mi" for "--log-text-info-buffer-size" flag: options.text.infoBufferSize: Forbidden: Feature LoggingAlphaOptions is disabled'],
    ['controller-manager', ['--vmodule=csrsigning=x'], 'invalid argument "csrsigning=x" for "--vmodule" flag: parsing verbosity in "csrsigning=x": strconv.ParseUint: parsing "x": invalid syntax'],
    ['all', ['--logging-format=xml'], 'invalid argument "xml" for "--logging-format" flag: format: Invalid value: "xml": Unsupported log format'],
  ];
  const argv = (role: string, args: string[]) => [...(role === 'controller-manager' ? ['--master=https://127.0.0.1:1'] : []), ...args];
  // Booted in this process (boot refuses before anything starts); the first row as the real process too.
  for (const [role, args, message] of refusals) {
    it(`plat ${role} ${args.join(' ')} is refused`, async () => {
      const r = await bootRefusal(role, argv(role, args));
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stderr.trim().split('\n').at(-1), `plat ${role}: ${message}`);
    });
  }
  it('the real process refuses the first', async () => {
    const [role, args, message] = refusals[0]!;
    const r = await runPlatAsync([role, ...argv(role, args)]);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stderr.trim().split('\n').at(-1), `plat ${role}: ${message}`);
  });
});
