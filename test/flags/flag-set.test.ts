import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FlagError, Flags } from '../../core/flags/flag-set.js';
import type { FlagSpec } from '../../core/flags/types.js';

const SERVING = 'Serving, network and process';
const LIMITS = 'Limits and timeouts of requests';
const LOGGING = 'Versions, features, metrics and logging';

function makeFlags(): Flags {
  const f = new Flags();
  const specs: FlagSpec[] = [
    { name: 'secure-port', type: 'int', default: 6443, help: 'HTTPS port.', section: SERVING },
    { name: 'cert-dir', type: 'string', default: '/var/run/platform', help: 'Directory of TLS certificates.', section: SERVING },
    { name: 'profiling', type: 'bool', default: true, help: 'Serve profiling.', section: SERVING },
    { name: 'permit-port-sharing', type: 'bool', help: 'Use SO_REUSEPORT.', section: SERVING },
    { name: 'goaway-chance', type: 'float', help: 'GOAWAY fraction.', section: SERVING, validate: (v) => ((v as number) <= 0.02 ? undefined : 'must be between 0 and 0.02') },
    { name: 'cors-allowed-origins', type: 'strings', default: ['a', 'b'], help: 'CORS origins.', section: SERVING },
    { name: 'tls-sni-cert-key', type: 'stringArray', help: 'SNI pairs.', section: SERVING },
    { name: 'tls-min-version', type: 'string', help: 'Minimum TLS version.', section: SERVING, enum: ['VersionTLS12', 'VersionTLS13'] },
    { name: 'enable-logs-handler', type: 'bool', help: 'Logs handler.', section: SERVING, deprecated: 'will be removed' },
    { name: 'max-connection-bytes-per-sec', type: 'int', help: 'Throttle.', section: SERVING, unsupported: 'plat does not throttle connections' },
    { name: 'request-timeout', type: 'duration', default: 60_000, help: 'Default request timeout.', section: LIMITS },
    { name: 'event-ttl', type: 'duration', default: 3_600_000, help: 'Event retention.', section: LIMITS },
    { name: 'feature-gates', type: 'map', help: 'Feature gates.', section: LOGGING },
    { name: 'log-text-info-buffer-size', type: 'quantity', help: 'Buffer.', section: LOGGING },
    { name: 'authorization-mode', type: 'strings', help: 'Authorizers.', section: LOGGING, enum: ['RBAC', 'Node', 'AlwaysAllow'] },
    { name: 'v', shorthand: 'v', type: 'int', help: 'Log verbosity.', section: LOGGING },
    { name: 'version', type: 'string', noOptValue: 'true', help: 'Print version.', section: LOGGING },
  ];
  for (const s of specs) f.define(s);
  return f;
}

function flagError(message: string | RegExp) {
  return (err: unknown) => {
    assert.ok(err instanceof FlagError, `expected FlagError, got ${String(err)}`);
    assert.equal(err.exitCode, 2);
    if (typeof message === 'string') assert.equal(err.message, message);
    else assert.match(err.message, message);
    return true;
  };
}

test('defaults and zero values before anything is set', () => {
  const f = makeFlags();
  assert.equal(f.get('secure-port'), 6443);
  assert.equal(f.get('cert-dir'), '/var/run/platform');
  assert.equal(f.get('permit-port-sharing'), false);
  assert.equal(f.get('goaway-chance'), 0);
  assert.deepEqual(f.get('tls-sni-cert-key'), []);
  assert.deepEqual(f.get('feature-gates'), {});
  assert.equal(f.isSet('secure-port'), false);
  assert.equal(f.has('secure-port'), true);
  assert.equal(f.has('nope'), false);
  assert.throws(() => f.get('nope'), /not defined/);
  assert.equal(f.specs().length, 17);
});

test('--f=v, --f v, shorthand -v=3 / -v 3 / -v3', () => {
  const f = makeFlags();
  f.parse(['--secure-port=8443', '--cert-dir', '/tmp/certs', '-v=3']);
  assert.equal(f.get('secure-port'), 8443);
  assert.equal(f.get('cert-dir'), '/tmp/certs');
  assert.equal(f.get('v'), 3);
  assert.equal(f.isSet('secure-port'), true);
  f.parse(['-v', '4']);
  assert.equal(f.get('v'), 4);
  assert.equal(f.get('secure-port'), 6443, 'parsing again starts over');
  f.parse(['-v5']);
  assert.equal(f.get('v'), 5);
  f.parse(['--v=6']);
  assert.equal(f.get('v'), 6);
  f.parse(['--secure-port=0x20FB']);
  assert.equal(f.get('secure-port'), 8443);
});

test('bools: bare, =true, =false, and a bare bool never consumes the next argument', () => {
  const f = makeFlags();
  let r = f.parse(['--permit-port-sharing', 'false', '--profiling=false']);
  assert.equal(f.get('permit-port-sharing'), true);
  assert.equal(f.get('profiling'), false);
  assert.deepEqual(r.positional, ['false']);
  r = f.parse(['--permit-port-sharing=true', '--profiling=t']);
  assert.equal(f.get('permit-port-sharing'), true);
  assert.equal(f.get('profiling'), true);
  assert.throws(() => f.parse(['--profiling=yes']), flagError('invalid argument "yes" for "--profiling" flag: strconv.ParseBool: parsing "yes": invalid syntax'));
});

test('noOptValue on a non-bool flag (--version, --version=raw)', () => {
  const f = makeFlags();
  f.parse(['--version', 'x']);
  assert.equal(f.get('version'), 'true');
  f.parse(['--version=raw']);
  assert.equal(f.get('version'), 'raw');
});

test('positional arguments, -- and a lone -', () => {
  const f = makeFlags();
  const { positional } = f.parse(['a', '--secure-port', '1', '-', 'b', '--', '--cert-dir=x', '-v']);
  assert.deepEqual(positional, ['a', '-', 'b', '--cert-dir=x', '-v']);
  assert.equal(f.get('cert-dir'), '/var/run/platform');
});

test('strings: commas and repeats append; the first occurrence replaces the default', () => {
  const f = makeFlags();
  f.parse(['--cors-allowed-origins=a,b', '--cors-allowed-origins', 'c']);
  assert.deepEqual(f.get('cors-allowed-origins'), ['a', 'b', 'c']);
  f.parse(['--cors-allowed-origins=x']);
  assert.deepEqual(f.get('cors-allowed-origins'), ['x']);
  f.parse(['--cors-allowed-origins=']);
  assert.deepEqual(f.get('cors-allowed-origins'), []);
  f.parse(['--cors-allowed-origins="a,b",c']);
  assert.deepEqual(f.get('cors-allowed-origins'), ['a,b', 'c']);
  assert.throws(() => f.parse(['--cors-allowed-origins=a"b']), flagError(/bare " in non-quoted-field/));
});

test('stringArray: repeats only, no comma split', () => {
  const f = makeFlags();
  f.parse(['--tls-sni-cert-key=a.crt,a.key:*.a.com,a.com', '--tls-sni-cert-key', 'b.crt,b.key']);
  assert.deepEqual(f.get('tls-sni-cert-key'), ['a.crt,a.key:*.a.com,a.com', 'b.crt,b.key']);
});

test('map: k=v pairs, repeatable, merging', () => {
  const f = makeFlags();
  f.parse(['--feature-gates=A=true,B=false', '--feature-gates', 'C=true,A=false']);
  assert.deepEqual(f.get('feature-gates'), { A: 'false', B: 'false', C: 'true' });
  assert.throws(() => f.parse(['--feature-gates=A']), flagError('invalid argument "A" for "--feature-gates" flag: A must be formatted as key=value'));
});

test('configurationMap (cliflag.ConfigurationMap): a key without = has an empty value, plain comma split, repeats merge', () => {
  const withMap = () => {
    const flags = new Flags();
    flags.define({ name: 'runtime-config', type: 'configurationMap', help: 'APIs.', section: LOGGING });
    return flags;
  };
  const f = withMap();
  f.parse(['--runtime-config= api/all = false ,a/v1,,"b/v1=x', '--runtime-config', 'a/v1=true']);
  assert.deepEqual(f.get('runtime-config'), { 'api/all': 'false', 'a/v1': 'true', '"b/v1': 'x' });
  const c = withMap();
  c.setFromConfig({ 'runtime-config': ['v1', 'api/beta=true'] }, '/srv/plat.config.yaml');
  assert.deepEqual(c.get('runtime-config'), { v1: '', 'api/beta': 'true' });
  c.setFromConfig({ 'runtime-config': { 'api/all': false } }, '/srv/plat.config.yaml');
  assert.deepEqual(c.get('runtime-config'), { 'api/all': 'false' });
  assert.match(c.help('plat', ''), /--runtime-config mapStringString/);
});

test('duration, quantity, float and int values', () => {
  const f = makeFlags();
  f.parse(['--request-timeout=30s', '--log-text-info-buffer-size=1Mi', '--goaway-chance=0.01']);
  assert.equal(f.get('request-timeout'), 30_000);
  assert.equal(f.get('log-text-info-buffer-size'), 2 ** 20);
  assert.equal(f.get('goaway-chance'), 0.01);
  assert.throws(() => f.parse(['--request-timeout=5d']), flagError('invalid argument "5d" for "--request-timeout" flag: time: unknown unit "d" in duration "5d"'));
  assert.throws(() => f.parse(['--request-timeout=5']), flagError('invalid argument "5" for "--request-timeout" flag: time: missing unit in duration "5"'));
  assert.throws(() => f.parse(['--secure-port=abc']), flagError('invalid argument "abc" for "--secure-port" flag: strconv.ParseInt: parsing "abc": invalid syntax'));
  assert.throws(() => f.parse(['--secure-port=1.5']), flagError(/strconv.ParseInt: parsing "1.5": invalid syntax/));
  assert.throws(() => f.parse(['--secure-port=2147483648']), flagError(/strconv.ParseInt: parsing "2147483648": value out of range/));
  assert.throws(() => f.parse(['-v', 'x']), flagError('invalid argument "x" for "-v, --v" flag: strconv.ParseInt: parsing "x": invalid syntax'));
  assert.throws(() => f.parse(['--goaway-chance=lots']), flagError(/strconv.ParseFloat: parsing "lots": invalid syntax/));
  assert.throws(() => f.parse(['--log-text-info-buffer-size=1X']), flagError(/quantities must match the regular expression/));
});

test('unknown flags, with suggestions by edit distance', () => {
  const f = makeFlags();
  assert.throws(() => f.parse(['--secure-prot=1']), flagError('unknown flag: --secure-prot (did you mean --secure-port?)'));
  assert.throws(() => f.parse(['--request-timout', '1s']), flagError('unknown flag: --request-timout (did you mean --request-timeout?)'));
  assert.throws(() => f.parse(['--completely-different']), flagError('unknown flag: --completely-different'));
  assert.throws(() => f.parse(['-q']), flagError("unknown shorthand flag: 'q' in -q"));
  assert.throws(() => f.parse(['-cert-dir=x']), flagError("unknown shorthand flag: 'c' in -cert-dir=x (did you mean --cert-dir?)"));
  assert.throws(() => f.parse(['-secure-port']), flagError("unknown shorthand flag: 's' in -secure-port (did you mean --secure-port?)"));
  assert.throws(() => f.parse(['---x']), flagError('bad flag syntax: ---x'));
  assert.throws(() => f.parse(['--=x']), flagError('bad flag syntax: --=x'));
});

test('missing arguments', () => {
  const f = makeFlags();
  assert.throws(() => f.parse(['--cert-dir']), flagError('flag needs an argument: --cert-dir'));
  assert.throws(() => f.parse(['-v']), flagError("flag needs an argument: 'v' in -v"));
});

test('enum: strings and each element of lists; empty passes', () => {
  const f = makeFlags();
  f.parse(['--tls-min-version=VersionTLS13', '--authorization-mode=Node,RBAC']);
  assert.equal(f.get('tls-min-version'), 'VersionTLS13');
  assert.deepEqual(f.get('authorization-mode'), ['Node', 'RBAC']);
  f.parse(['--tls-min-version=']);
  assert.throws(
    () => f.parse(['--tls-min-version=VersionTLS11']),
    flagError('invalid argument "VersionTLS11" for "--tls-min-version" flag: "VersionTLS11" is not one of: VersionTLS12, VersionTLS13'),
  );
  assert.throws(() => f.parse(['--authorization-mode=RBAC,ABAC']), flagError(/"ABAC" is not one of: RBAC, Node, AlwaysAllow/));
});

test('enum: an empty value passes only where it is the unset value (empty default); never as a list element', () => {
  const f = new Flags();
  f.define({ name: 'tls-min-version', type: 'string', help: '', section: SERVING, enum: ['VersionTLS12'] });
  f.define({ name: 'output', type: 'string', default: '', help: '', section: SERVING, enum: ['json'] });
  f.define({ name: 'logging-format', type: 'string', default: 'text', help: '', section: LOGGING, enum: ['text'] });
  f.define({ name: 'authorization-mode', type: 'strings', help: '', section: LOGGING, enum: ['RBAC', 'Node'] });
  f.parse(['--tls-min-version=', '--output=', '--authorization-mode=']);
  assert.equal(f.get('tls-min-version'), '');
  assert.deepEqual(f.get('authorization-mode'), []);
  assert.throws(() => f.parse(['--logging-format=']), flagError('invalid argument "" for "--logging-format" flag: "" is not one of: text'));
  assert.throws(() => f.parse(['--authorization-mode=RBAC,']), flagError('invalid argument "RBAC," for "--authorization-mode" flag: "" is not one of: RBAC, Node'));
  assert.throws(() => f.setFromConfig({ 'logging-format': '' }, 'plat.yaml'), flagError(/^plat\.yaml: invalid value "" for flag "logging-format"/));
});

test('float32 flags parse as strconv.ParseFloat(s, 32): rounded to float32, out of range past its largest value', () => {
  const f = new Flags();
  f.define({ name: 'qps', type: 'float32', default: 20, help: 'Queries per second.', section: SERVING });
  f.define({ name: 'chance', type: 'float', help: 'A float64.', section: SERVING });
  const ok: [string, number][] = [['20', 20], ['0.1', Math.fround(0.1)], ['3.4028234e38', Math.fround(3.4028234e38)], ['-1', -1], ['1e-50', 0], ['+Inf', Infinity]];
  for (const [text, value] of ok) {
    f.parse([`--qps=${text}`]);
    assert.equal(f.get('qps'), value, text);
  }
  for (const text of ['1e39', '-1e39', '3.5e38']) {
    assert.throws(() => f.parse([`--qps=${text}`]), flagError(`invalid argument "${text}" for "--qps" flag: strconv.ParseFloat: parsing "${text}": value out of range`));
  }
  f.parse(['--chance=1e39']);
  assert.equal(f.get('chance'), 1e39, 'a float64 holds it');
  assert.throws(() => f.setFromConfig({ qps: 1e39 }, 'cm.yaml'), flagError('cm.yaml: invalid value 1e+39 for flag "qps": strconv.ParseFloat: parsing "1e+39": value out of range'));
  assert.match(f.help('x', ''), /--chance float +A float64\.\n +--qps float32 +Queries per second\. \(default 20\)/);
});

test('validate hook runs on the final value', () => {
  const f = makeFlags();
  assert.throws(() => f.parse(['--goaway-chance=0.5']), flagError('invalid argument "0.5" for "--goaway-chance" flag: must be between 0 and 0.02'));
  assert.throws(
    () => f.setFromConfig({ 'goaway-chance': 0.5 }, '/etc/plat/plat.config.json'),
    flagError('/etc/plat/plat.config.json: invalid value "0.5" for flag "goaway-chance": must be between 0 and 0.02'),
  );
});

test('config values: typed JSON and command-line texts; the command line wins in either order', () => {
  const src = '/srv/plat.config.yaml';
  const f = makeFlags();
  f.setFromConfig(
    {
      'secure-port': 7443,
      'cert-dir': '/etc/certs',
      profiling: false,
      'request-timeout': '30s',
      'event-ttl': 0,
      'cors-allowed-origins': ['x,y', 'z'],
      'authorization-mode': 'RBAC,Node',
      'feature-gates': { A: true, B: 'false' },
      'log-text-info-buffer-size': '1Ki',
      'tls-sni-cert-key': 'c.crt,c.key',
      '--v': '2',
    },
    src,
  );
  assert.equal(f.get('secure-port'), 7443);
  assert.equal(f.get('cert-dir'), '/etc/certs');
  assert.equal(f.get('profiling'), false);
  assert.equal(f.get('request-timeout'), 30_000);
  assert.equal(f.get('event-ttl'), 0);
  assert.deepEqual(f.get('cors-allowed-origins'), ['x,y', 'z'], 'array elements are not split');
  assert.deepEqual(f.get('authorization-mode'), ['RBAC', 'Node']);
  assert.deepEqual(f.get('feature-gates'), { A: 'true', B: 'false' });
  assert.equal(f.get('log-text-info-buffer-size'), 1024);
  assert.deepEqual(f.get('tls-sni-cert-key'), ['c.crt,c.key']);
  assert.equal(f.get('v'), 2);
  assert.equal(f.isSet('cert-dir'), true);
  assert.equal(f.isSetOnCommandLine('cert-dir'), false);
  assert.equal(f.sourceOf('cert-dir'), src);

  f.parse(['--secure-port=9443', '--cors-allowed-origins=cli']);
  assert.equal(f.get('secure-port'), 9443);
  assert.deepEqual(f.get('cors-allowed-origins'), ['cli'], 'the first command-line occurrence replaces the config list');
  assert.equal(f.get('cert-dir'), '/etc/certs');
  assert.equal(f.sourceOf('secure-port'), 'command line');

  // Config applied after the command line still loses to it.
  f.setFromConfig({ 'secure-port': 1, 'cert-dir': '/later' }, src);
  assert.equal(f.get('secure-port'), 9443);
  assert.equal(f.get('cert-dir'), '/later', 'a later config layer replaces an earlier one');
});

test('config values are checked like command-line values', () => {
  const src = '/srv/.platrc.json';
  const f = makeFlags();
  const cases: Array<[Record<string, unknown>, string | RegExp]> = [
    [{ 'secure-prot': 1 }, `${src}: unknown flag "secure-prot" (did you mean "secure-port"?)`],
    [{ bogus: 1 }, `${src}: unknown flag "bogus"`],
    [{ 'secure-port': 'abc' }, `${src}: invalid value "abc" for flag "secure-port": strconv.ParseInt: parsing "abc": invalid syntax`],
    [{ 'secure-port': 1.5 }, /strconv.ParseInt: parsing "1.5": invalid syntax/],
    [{ 'request-timeout': 30 }, `${src}: invalid value 30 for flag "request-timeout": time: missing unit in duration "30"`],
    [{ 'request-timeout': '5d' }, /time: unknown unit "d" in duration "5d"/],
    [{ profiling: 'maybe' }, /strconv.ParseBool: parsing "maybe": invalid syntax/],
    [{ profiling: [true] }, /expected a single bool value, not a list/],
    [{ 'cert-dir': 1.3 }, /expected a string \(quote the value\)/],
    [{ 'cert-dir': true }, /expected a string value, not a boolean/],
    [{ 'cert-dir': null }, /a value is required/],
    [{ 'feature-gates': { A: { deep: 1 } } }, /key "A": expected a string, not object/],
    [{ 'tls-min-version': 'VersionTLS10' }, `${src}: invalid value "VersionTLS10" for flag "tls-min-version": "VersionTLS10" is not one of: VersionTLS12, VersionTLS13`],
    [{ 'authorization-mode': ['RBAC', 'Bogus'] }, /"Bogus" is not one of/],
  ];
  for (const [values, message] of cases) assert.throws(() => f.setFromConfig(values, src), flagError(message), JSON.stringify(values));
});

test('deprecated and unsupported flags that were used are reported', () => {
  const f = makeFlags();
  assert.deepEqual(f.usedDeprecated(), []);
  f.setFromConfig({ 'max-connection-bytes-per-sec': 5 }, 'cfg');
  f.parse(['--enable-logs-handler']);
  assert.deepEqual(f.usedDeprecated(), [{ name: 'enable-logs-handler', message: 'will be removed' }]);
  assert.deepEqual(f.usedUnsupported(), [{ name: 'max-connection-bytes-per-sec', reason: 'plat does not throttle connections' }]);
});

test('define: duplicates name both owners; shorthand clashes', () => {
  const f = new Flags();
  f.define({ name: 'secure-port', type: 'int', help: '', section: SERVING, owner: 'SecureServing' });
  f.owner = 'OtherPlugin';
  assert.throws(() => f.define({ name: 'secure-port', type: 'int', help: '', section: SERVING }), {
    message: 'flag --secure-port is defined twice: by "SecureServing" and by "OtherPlugin"',
  });
  f.define({ name: 'v', shorthand: 'v', type: 'int', help: '', section: LOGGING });
  assert.equal(f.specs().find((s) => s.name === 'v')?.owner, 'OtherPlugin');
  assert.throws(() => f.define({ name: 'verbose', shorthand: 'v', type: 'bool', help: '', section: LOGGING }), /shorthand -v of --verbose .* is already used by --v/);
  assert.throws(() => f.define({ name: '--bad', type: 'bool', help: '', section: LOGGING }), /not a valid flag name/);
});

test('help: usage line, sections in definition order, pflag defaults, notes', () => {
  const f = makeFlags();
  const help = f.help('plat apiserver [flags]', 'The plat API server.', 0);
  assert.match(help, /^The plat API server\.\n\nUsage:\n {2}plat apiserver \[flags\]\n\n/);
  const serving = help.indexOf(`${SERVING}:\n\n`);
  const limits = help.indexOf(`${LIMITS}:\n\n`);
  const logging = help.indexOf(`${LOGGING}:\n\n`);
  assert.ok(serving > 0 && serving < limits && limits < logging, 'sections in the order first defined');
  assert.match(help, /\n {6}--secure-port int +HTTPS port\. \(default 6443\)\n/);
  assert.match(help, /--cert-dir string +Directory of TLS certificates\. \(default "\/var\/run\/platform"\)/);
  assert.match(help, /--profiling +Serve profiling\. \(default true\)/);
  assert.match(help, /--permit-port-sharing +Use SO_REUSEPORT\.\n/, 'false bools show no default');
  assert.match(help, /--cors-allowed-origins strings +CORS origins\. \(default \[a,b\]\)/);
  assert.match(help, /--request-timeout duration +Default request timeout\. \(default 1m0s\)/);
  assert.match(help, /--event-ttl duration +Event retention\. \(default 1h0m0s\)/);
  assert.match(help, /--feature-gates mapStringString +Feature gates\.\n/);
  assert.match(help, /\n {2}-v, --v int +Log verbosity\.\n/);
  assert.match(help, /--version string\[="true"\] +Print version\./);
  assert.match(help, /--max-connection-bytes-per-sec int +Throttle\. \(not supported yet: plat does not throttle connections\)/);
  assert.doesNotMatch(help, /enable-logs-handler/, 'deprecated flags are hidden, as pflag hides them');
  // The help column is aligned within a section.
  const col = (name: string) => {
    const line = help.split('\n').find((l) => l.includes(`--${name} `)) ?? '';
    return line.search(/ [A-Z]/) ;
  };
  assert.equal(col('secure-port'), col('cert-dir'));
});

test('help wraps long texts at the given width', () => {
  const f = new Flags();
  const long = 'word '.repeat(40).trim();
  f.define({ name: 'a', type: 'string', help: long, section: 'S' });
  const help = f.help('cmd', '', 60);
  const lines = help.split('\n').filter((l) => l.includes('word'));
  assert.ok(lines.length > 1);
  for (const l of lines) assert.ok(l.length <= 60 + 5, `line too long: ${l.length}`);
  assert.equal(f.help('cmd', '', 0).split('\n').filter((l) => l.includes('word')).length, 1, 'width 0: no wrapping');
});

test('define refuses a default that is not of the parsed type', () => {
  const f = new Flags();
  assert.throws(() => f.define({ name: 'request-timeout', type: 'duration', default: '1m0s', help: '', section: LIMITS, owner: 'X' }), {
    message: 'flag --request-timeout ("X"): default "1m0s" is not a parsed duration value',
  });
});

test('underscores in flag names read as dashes (cliflag.WordSepNormalizeFunc), on the command line and in the config file', () => {
  const f = makeFlags();
  f.parse(['--secure_port=8443', '--permit_port_sharing', '--cert_dir', '/tmp/c', '--tls_sni_cert_key=a,b', '--tls-sni_cert-key=c,d']);
  assert.equal(f.get('secure-port'), 8443);
  assert.equal(f.get('permit-port-sharing'), true);
  assert.equal(f.get('cert-dir'), '/tmp/c');
  assert.deepEqual(f.get('tls-sni-cert-key'), ['a,b', 'c,d'], 'one flag, whichever spelling');
  assert.throws(() => f.parse(['--secure_port=x']), flagError(/^invalid argument "x" for "--secure-port" flag/));
  assert.throws(() => f.parse(['--secure_prot=1']), flagError('unknown flag: --secure_prot (did you mean --secure-port?)'));
  assert.throws(() => f.parse(['-secure_port=1']), flagError(/\(did you mean --secure-port\?\)$/));
  f.setFromConfig({ request_timeout: '30s' }, 'plat.config.json');
  assert.equal(f.get('request-timeout'), 30_000);
  assert.throws(() => new Flags().define({ name: 'bad_name', type: 'bool', help: '', section: SERVING }), /not a valid flag name/);
});

test('level flags (-v) parse as component-base\'s VerbosityLevelPflag: strconv.ParseUint(s, 10, 31), shown as Level', () => {
  const f = new Flags();
  f.define({ name: 'v', shorthand: 'v', type: 'level', default: 0, help: 'Log verbosity.', section: LOGGING });
  for (const [text, value] of [['0', 0], ['4', 4], ['007', 7], ['2147483647', 2147483647]] as const) {
    f.parse([`-v=${text}`]);
    assert.equal(f.get('v'), value, text);
  }
  const refused: [string, string][] = [
    ['abc', 'invalid syntax'], ['-1', 'invalid syntax'], ['+1', 'invalid syntax'], ['0x10', 'invalid syntax'], ['1_0', 'invalid syntax'], ['', 'invalid syntax'],
    ['2147483648', 'value out of range'], ['99999999999999999999', 'value out of range'],
  ];
  for (const [text, why] of refused) {
    assert.throws(() => f.parse([`--v=${text}`]), flagError(`invalid argument ${JSON.stringify(text)} for "-v, --v" flag: strconv.ParseUint: parsing ${JSON.stringify(text)}: ${why}`), text);
  }
  assert.throws(() => f.setFromConfig({ v: -1 }, 'plat.yaml'), flagError('plat.yaml: invalid value -1 for flag "v": strconv.ParseUint: parsing "-1": invalid syntax'));
  assert.match(f.help('x', ''), /^ {2}-v, --v Level +Log verbosity\.$/m);
});

test('a refused value of a sensitive flag is not quoted in the error, on the command line or from a config file', () => {
  const f = new Flags();
  f.define({ name: 'api-key', type: 'string', help: 'A key.', section: SERVING, sensitive: true, validate: (v) => (String(v).length < 8 ? `${String(v)} is too short` : undefined) });
  f.define({ name: 'pin', type: 'int', help: 'A PIN.', section: SERVING, sensitive: true });
  f.define({ name: 'realm', type: 'string', help: 'A realm.', section: SERVING, enum: ['a'], sensitive: true });
  assert.throws(() => f.parse(['--api-key=s3cr']), flagError('invalid argument "<masked>" for "--api-key" flag: <masked> is too short'));
  assert.throws(() => f.parse(['--pin=12ab']), flagError('invalid argument "<masked>" for "--pin" flag: not a valid int value (a sensitive flag\'s value is not shown)'));
  assert.throws(() => f.parse(['--realm=s3cr3t']), flagError('invalid argument "<masked>" for "--realm" flag: a value is not one of: a'));
  const g = new Flags();
  g.define({ name: 'api-key', type: 'string', help: 'A key.', section: SERVING, sensitive: true, validate: (v) => (String(v).length < 8 ? 'too short' : undefined) });
  g.define({ name: 'pin', type: 'int', help: 'A PIN.', section: SERVING, sensitive: true });
  g.define({ name: 'realm', type: 'string', help: 'A realm.', section: SERVING, enum: ['a'], sensitive: true });
  assert.throws(() => g.setFromConfig({ 'api-key': 's3cr' }, 'plat.yaml'), flagError('plat.yaml: invalid value "<masked>" for flag "api-key": too short'));
  assert.throws(() => g.setFromConfig({ pin: '12ab' }, 'plat.yaml'), flagError('plat.yaml: invalid value "<masked>" for flag "pin": not a valid int value (a sensitive flag\'s value is not shown)'));
  assert.throws(() => g.setFromConfig({ realm: 's3cr3t' }, 'plat.yaml'), flagError('plat.yaml: invalid value "<masked>" for flag "realm": a value is not one of: a'));
});

// Go's parse errors quote the value escaped, or a piece of it, or name a pair bare: none of it is shown.
test('a sensitive flag\'s parse refusal shows no piece of the value, whatever the type\'s error would quote', () => {
  const f = new Flags();
  f.define({ name: 'pin', type: 'int', help: 'A PIN.', section: SERVING, sensitive: true });
  f.define({ name: 'ttl', type: 'duration', help: 'A TTL.', section: SERVING, sensitive: true });
  f.define({ name: 'headers', type: 'map', help: 'Headers.', section: SERVING, sensitive: true });
  f.define({ name: 'realm', type: 'strings', help: 'Realms.', section: SERVING, enum: ['a'], sensitive: true });
  const cases: Array<[string, string, string]> = [
    ['--pin=12"ab', 'int', '12'],
    ['--ttl=5xs3cr3t', 'duration', 's3cr3t'],
    ['--headers=Authorization=Bearer t0k,3n-part', 'map', '3n-part'],
    ['--realm=a,s3cr3t', '', 's3cr3t'],
  ];
  for (const [arg, type, piece] of cases) {
    assert.throws(() => f.parse([arg]), (e: Error) => {
      assert.ok(!e.message.includes(piece), e.message);
      if (type) assert.ok(e.message.endsWith(`flag: not a valid ${type} value (a sensitive flag's value is not shown)`), e.message);
      return true;
    }, arg);
  }
  const g = new Flags();
  g.define({ name: 'headers', type: 'map', help: 'Headers.', section: SERVING, sensitive: true });
  assert.throws(() => g.setFromConfig({ headers: ['Bearer abc123'] }, 'plat.yaml'), (e: Error) => !e.message.includes('abc123'));
});

test('--help says a sensitive flag has a default without showing it', () => {
  const f = new Flags();
  f.define({ name: 'api-key', type: 'string', default: 's3cr3t-default', help: 'A key.', section: SERVING, sensitive: true });
  f.define({ name: 'pin', type: 'int', default: 4711, help: 'A PIN.', section: SERVING, sensitive: true });
  f.define({ name: 'token', type: 'string', help: 'A token.', section: SERVING, sensitive: true });
  const help = f.help('x', '');
  assert.match(help, /--api-key string +A key\. \(default <masked>\)$/m);
  assert.match(help, /--pin int +A PIN\. \(default <masked>\)$/m);
  assert.match(help, /--token string +A token\.$/m);
  assert.ok(!help.includes('s3cr3t') && !help.includes('4711'), help);
});
