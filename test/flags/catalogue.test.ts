import { test } from 'node:test';
import assert from 'node:assert/strict';
import { APISERVER_FLAG_SECTIONS, apiserverFlagCatalogue } from '../../host/flag-catalogue/apiserver.js';
import { Flags } from '../../core/flags/flag-set.js';
import { formatDefault } from '../../core/flags/help.js';
import { isOfType } from '../../core/flags/parse-value.js';

const byName = new Map(apiserverFlagCatalogue.map((s) => [s.name, s]));

test('names are unique, well-formed, and exclude the host-owned flags', () => {
  assert.equal(byName.size, apiserverFlagCatalogue.length);
  for (const s of apiserverFlagCatalogue) assert.match(s.name, /^[a-z0-9][a-z0-9-]*$/, s.name);
  for (const hostOwned of ['version', 'help', 'h']) assert.equal(byName.has(hostOwned), false, hostOwned);
  // The spec's tables list 167 options once multi-name rows are split; plat adds --data-dir.
  assert.equal(apiserverFlagCatalogue.length, 168);
});

test('every section is one of the spec headings, and all of them are used', () => {
  const sections = new Set<string>(APISERVER_FLAG_SECTIONS);
  for (const s of apiserverFlagCatalogue) assert.ok(sections.has(s.section), `${s.name}: ${s.section}`);
  assert.deepEqual([...new Set(apiserverFlagCatalogue.map((s) => s.section))], [...APISERVER_FLAG_SECTIONS]);
});

test('every default is a value of its type, passes its enum and validate, and prints', () => {
  for (const s of apiserverFlagCatalogue) {
    assert.ok(s.help.length > 0, `${s.name}: help`);
    if (s.default === undefined) continue;
    assert.ok(isOfType(s.type, s.default), `${s.name}: default ${JSON.stringify(s.default)} is not a ${s.type}`);
    if (s.enum !== undefined) {
      const items = Array.isArray(s.default) ? (s.default as string[]) : [s.default as string];
      for (const item of items) assert.ok(item === '' || s.enum.includes(item), `${s.name}: default ${item} not in enum`);
    }
    assert.equal(s.validate?.(s.default), undefined, `${s.name}: default fails validate`);
    formatDefault(s);
  }
});

test('the whole catalogue loads into a FlagSet, parses its own printed defaults, and renders help', () => {
  const f = new Flags();
  for (const s of apiserverFlagCatalogue) f.define(s);
  const argv: string[] = [];
  for (const s of apiserverFlagCatalogue) {
    const printed = formatDefault(s);
    if (printed === undefined || s.type === 'map') continue;
    // Printed forms are what an operator copies back: "x" quoted, [a,b] bracketed.
    const text = s.type === 'string' ? (JSON.parse(printed) as string) : s.type === 'strings' ? printed.slice(1, -1) : printed;
    argv.push(`--${s.name}=${text}`);
  }
  f.parse(argv);
  for (const s of apiserverFlagCatalogue) assert.deepEqual(f.get(s.name), s.default ?? f.get(s.name), s.name);
  const help = f.help('plat apiserver [flags]', 'The plat API server.');
  for (const section of APISERVER_FLAG_SECTIONS) assert.ok(help.includes(`\n${section}:\n`), section);
  assert.ok(!help.includes('--admission-control '), 'deprecated flags are hidden');
});

test('spot checks against the spec', () => {
  const expect: Array<[string, string, unknown]> = [
    ['secure-port', 'int', 6443],
    ['bind-address', 'string', '0.0.0.0'],
    ['cert-dir', 'string', '/var/run/platform'],
    ['request-timeout', 'duration', 60_000],
    ['min-request-timeout', 'int', 1800],
    ['max-requests-inflight', 'int', 400],
    ['max-mutating-requests-inflight', 'int', 200],
    ['event-ttl', 'duration', 3_600_000],
    ['storage-initialization-timeout', 'duration', 60_000],
    ['anonymous-auth', 'bool', true],
    ['authentication-token-webhook-cache-ttl', 'duration', 120_000],
    ['authentication-token-webhook-version', 'string', 'v1beta1'],
    ['oidc-username-claim', 'string', 'sub'],
    ['oidc-signing-algs', 'strings', ['RS256']],
    ['authorization-webhook-cache-authorized-ttl', 'duration', 300_000],
    ['authorization-webhook-cache-unauthorized-ttl', 'duration', 30_000],
    ['audit-log-format', 'string', 'json'],
    ['audit-log-mode', 'string', 'blocking'],
    ['audit-log-version', 'string', 'audit.platform/v1'],
    ['audit-log-truncate-max-batch-size', 'int', 10485760],
    ['audit-webhook-mode', 'string', 'batch'],
    ['audit-webhook-initial-backoff', 'duration', 10_000],
    ['audit-webhook-batch-throttle-qps', 'float32', 10],
    ['audit-webhook-batch-throttle-burst', 'int', 15],
    ['store-prefix', 'string', '/registry'],
    ['store-compaction-interval', 'duration', 300_000],
    ['storage-media-type', 'string', 'application/vnd.platform.protobuf'],
    ['endpoint-reconciler-type', 'string', 'lease'],
    ['coordinated-leadership-lease-duration', 'duration', 15_000],
    ['nodeagent-preferred-address-types', 'strings', ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP']],
    ['nodeagent-timeout', 'duration', 5_000],
    ['service-node-port-range', 'string', '30000-32767'],
    ['log-flush-frequency', 'duration', 5_000],
    ['logging-format', 'string', 'text'],
    ['data-dir', 'string', '/var/lib/plat'],
    ['profiling', 'bool', true],
    ['disable-http2-serving', 'bool', false],
  ];
  for (const [name, type, def] of expect) {
    const s = byName.get(name);
    assert.ok(s !== undefined, name);
    assert.equal(s.type, type, `${name} type`);
    assert.deepEqual(s.default, def, `${name} default`);
  }
  for (const name of ['tls-cert-file', 'goaway-chance', 'v', 'shutdown-delay-duration', 'feature-gates', 'log-text-info-buffer-size']) {
    assert.equal(byName.get(name)?.default, undefined, `${name} has no default in the spec`);
  }
});

test('types, shorthand, deprecations and sections of particular rows', () => {
  const t = (n: string) => byName.get(n)?.type;
  assert.equal(t('tls-sni-cert-key'), 'stringArray');
  assert.equal(t('service-account-issuer'), 'strings');
  assert.equal(t('service-account-key-file'), 'strings');
  assert.equal(t('oidc-required-claim'), 'map');
  assert.equal(t('feature-gates'), 'map');
  assert.equal(t('runtime-config'), 'configurationMap');
  // pflag's stringToString (StringToStringVar), not cliflag's MapStringString: one `=` is one whole pair.
  assert.equal(t('allow-metric-labels'), 'stringToString');
  assert.equal(t('log-text-info-buffer-size'), 'quantity');
  assert.equal(t('goaway-chance'), 'float');
  assert.equal(t('vmodule'), 'string');
  assert.equal(byName.get('v')?.shorthand, 'v');
  assert.ok(byName.get('admission-control')?.deprecated);
  assert.ok(byName.get('enable-logs-handler')?.deprecated);
  assert.equal(apiserverFlagCatalogue.filter((s) => s.deprecated !== undefined).length, 2);
  for (const n of ['store-cafile', 'store-certfile', 'store-keyfile', 'nodeagent-client-certificate', 'nodeagent-client-key', 'peer-advertise-ip', 'peer-advertise-port']) {
    assert.equal(t(n), 'string', n);
  }
  assert.equal(byName.get('request-timeout')?.section, 'Limits and timeouts of requests');
  assert.equal(byName.get('data-dir')?.section, 'Store, encryption and leadership');
  assert.equal(byName.get('secure-port')?.help, 'HTTPS port with authentication and authorization. 0 cannot switch it off.');
});

test('catalogue checks reject bad values', () => {
  const f = new Flags();
  for (const s of apiserverFlagCatalogue) f.define(s);
  // Its range is checked after parsing, in upstream's words (test/apiserver/server-run-options.test.ts).
  f.parse(['--goaway-chance=0.5']);
  assert.equal(f.get('goaway-chance'), 0.5);
  assert.throws(() => f.parse(['--service-node-port-range=30000']), /N1-N2/);
  assert.throws(() => f.parse(['--audit-log-mode=async']), /is not one of/);
  assert.throws(() => f.parse(['--authorization-mode=RBAC,Magic']), /"Magic" is not one of/);
  f.parse(['--authorization-mode=Node,RBAC', '-v=4', '--feature-gates=plat:Foo=true']);
  assert.deepEqual(f.get('authorization-mode'), ['Node', 'RBAC']);
  assert.equal(f.get('v'), 4);
  assert.deepEqual(f.get('feature-gates'), { 'plat:Foo': 'true' });
});
