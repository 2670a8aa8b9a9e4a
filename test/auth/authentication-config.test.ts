// The --authentication-config file: decoding and upstream's ValidateAuthenticationConfiguration
// (messages and field paths), table-driven; mutual exclusions and flag rules as start-up errors.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatFieldError } from '../../core/api/field-errors.js';
import {
  parseAuthenticationConfiguration, validateAuthenticationConfiguration,
} from '../../core/authn/authentication-config/index.js';
import { Flags } from '../../core/flags/flag-set.js';
import { StartupError } from '../../core/plugin.js';
import { AnonymousAuthenticator } from '../../plugins/authn-anonymous/index.js';
import {
  CelCompiler, FILE_AND_FLAGS_EXCLUSIVE, FLAGS_MUST_GO_TOGETHER, OIDC_FLAGS, OidcAuthenticator, jwtAuthenticatorFromFlags,
} from '../../plugins/authn-oidc/index.js';
import { makeCa } from '../helpers/certs.js';
import { startInProcess } from '../helpers/plat.js';
import { boot } from './support.js';

const HEAD = 'apiVersion: apiserver.platform/v1beta1\nkind: AuthenticationConfiguration\n';
const dir = mkdtempSync(join(tmpdir(), 'plat-authn-config-'));
let n = 0;
const write = (text: string) => { const f = join(dir, `c${n++}.yaml`); writeFileSync(f, text); return f; };

function errorsOf(yaml: string): string[] {
  const config = parseAuthenticationConfiguration(HEAD + yaml);
  return validateAuthenticationConfiguration(new CelCompiler(), config).map(formatFieldError);
}

/** One JWT authenticator in flow style, with `over` replacing parts of the valid base. */
function jwt(over: { issuer?: string; rules?: string; mappings?: string; user?: string } = {}): string {
  return [
    `- issuer: ${over.issuer ?? '{url: "https://issuer.example", audiences: [a]}'}`,
    ...(over.rules ? [`  claimValidationRules: ${over.rules}`] : []),
    `  claimMappings: ${over.mappings ?? '{username: {claim: sub, prefix: ""}}'}`,
    ...(over.user ? [`  userValidationRules: ${over.user}`] : []),
  ].join('\n');
}

const EMAIL_RULE = 'claims.email_verified must be used in claimMappings.username.expression or claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when claims.email is used in claimMappings.username.expression';
const DNS_MSG = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

const cases: Array<{ name: string; yaml: string; errors: Array<string | RegExp> }> = [
  { name: 'a valid configuration', yaml: `jwt:\n${jwt()}`, errors: [] },
  { name: 'no authenticators at all', yaml: 'jwt: []', errors: [] },
  { name: 'http issuer', yaml: `jwt:\n${jwt({ issuer: '{url: "http://issuer.example", audiences: [a]}' })}`,
    errors: ['jwt[0].issuer.url: Invalid value: "http://issuer.example": URL scheme must be https'] },
  { name: 'missing issuer URL', yaml: `jwt:\n${jwt({ issuer: '{audiences: [a]}' })}`, errors: ['jwt[0].issuer.url: Required value'] },
  { name: 'issuer URL with user, query and fragment', yaml: `jwt:\n${jwt({ issuer: '{url: "https://u:p@issuer.example/?x=1#f", audiences: [a]}' })}`,
    errors: [
      'jwt[0].issuer.url: Invalid value: "https://u:p@issuer.example/?x=1#f": URL must not contain a username or password',
      'jwt[0].issuer.url: Invalid value: "https://u:p@issuer.example/?x=1#f": URL must not contain a query',
      'jwt[0].issuer.url: Invalid value: "https://u:p@issuer.example/?x=1#f": URL must not contain a fragment',
    ] },
  { name: 'issuer URL without scheme', yaml: `jwt:\n${jwt({ issuer: '{url: "://issuer", audiences: [a]}' })}`,
    errors: ['jwt[0].issuer.url: Invalid value: "://issuer": parse "://issuer": missing protocol scheme'] },
  { name: 'the same issuer twice', yaml: `jwt:\n${jwt()}\n${jwt()}`, errors: ['jwt[1].issuer.url: Duplicate value: "https://issuer.example"'] },
  { name: 'discoveryURL equal to the URL', yaml: `jwt:\n${jwt({ issuer: '{url: "https://issuer.example", discoveryURL: "https://issuer.example/", audiences: [a]}' })}`,
    errors: ['jwt[0].issuer.discoveryURL: Invalid value: "https://issuer.example/": discoveryURL must be different from URL'] },
  { name: 'the same discoveryURL twice',
    yaml: `jwt:\n${jwt({ issuer: '{url: "https://one.example", discoveryURL: "https://d.example/x", audiences: [a]}' })}\n${jwt({ issuer: '{url: "https://two.example", discoveryURL: "https://d.example/x", audiences: [a]}' })}`,
    errors: ['jwt[1].issuer.discoveryURL: Duplicate value: "https://d.example/x"'] },
  { name: 'http discoveryURL', yaml: `jwt:\n${jwt({ issuer: '{url: "https://issuer.example", discoveryURL: "http://d.example/x", audiences: [a]}' })}`,
    errors: ['jwt[0].issuer.discoveryURL: Invalid value: "http://d.example/x": URL scheme must be https'] },
  { name: 'no audiences', yaml: `jwt:\n${jwt({ issuer: '{url: "https://issuer.example", audiences: []}' })}`,
    errors: ['jwt[0].issuer.audiences: Required value: at least one jwt[0].issuer.audiences is required'] },
  { name: 'an empty and a duplicate audience, no MatchAny', yaml: `jwt:\n${jwt({ issuer: '{url: "https://issuer.example", audiences: ["", a, a]}' })}`,
    errors: [
      'jwt[0].issuer.audiences[0]: Required value',
      'jwt[0].issuer.audiences[2]: Duplicate value: "a"',
      'jwt[0].issuer.audienceMatchPolicy: Invalid value: "": audienceMatchPolicy must be MatchAny for multiple audiences',
    ] },
  { name: 'several audiences with MatchAny', yaml: `jwt:\n${jwt({ issuer: '{url: "https://issuer.example", audiences: [a, b], audienceMatchPolicy: MatchAny}' })}`, errors: [] },
  { name: 'a single audience with another policy', yaml: `jwt:\n${jwt({ issuer: '{url: "https://issuer.example", audiences: [a], audienceMatchPolicy: MatchAll}' })}`,
    errors: ['jwt[0].issuer.audienceMatchPolicy: Invalid value: "MatchAll": audienceMatchPolicy must be empty or MatchAny for single audience'] },
  { name: 'a CA that holds no certificate', yaml: `jwt:\n${jwt({ issuer: '{url: "https://issuer.example", audiences: [a], certificateAuthority: "not a pem"}' })}`,
    errors: ['jwt[0].issuer.certificateAuthority: Invalid value: "<omitted>": data does not contain any valid RSA or ECDSA certificates'] },
  { name: 'an unknown egress selector', yaml: `jwt:\n${jwt({ issuer: '{url: "https://issuer.example", audiences: [a], egressSelectorType: etcd}' })}`,
    errors: ['jwt[0].issuer.egressSelectorType: Invalid value: "etcd": egress selector must be either controlplane or cluster'] },
  { name: 'claim rule with claim and expression', yaml: `jwt:\n${jwt({ rules: '[{claim: hd, expression: "true"}]' })}`,
    errors: ["jwt[0].claimValidationRules[0]: Invalid value: \"hd\": claim and expression can't both be set"] },
  { name: 'claim rule with neither', yaml: `jwt:\n${jwt({ rules: '[{message: x}]' })}`,
    errors: ['jwt[0].claimValidationRules[0]: Required value: claim or expression is required'] },
  { name: 'claim rule with a message, and a duplicate claim', yaml: `jwt:\n${jwt({ rules: '[{claim: hd, message: m}, {claim: hd}]' })}`,
    errors: ['jwt[0].claimValidationRules[0].message: Invalid value: "m": may not be specified when claim is set', 'jwt[0].claimValidationRules[1].claim: Duplicate value: "hd"'] },
  { name: 'expression rule with a required value, and a duplicate expression',
    yaml: `jwt:\n${jwt({ rules: '[{expression: "claims.hd == \'x\'", requiredValue: x}, {expression: "claims.hd == \'x\'"}]' })}`,
    errors: ['jwt[0].claimValidationRules[0].requiredValue: Invalid value: "x": may not be specified when expression is set', 'jwt[0].claimValidationRules[1].expression: Duplicate value: "claims.hd == \'x\'"'] },
  { name: 'a claim rule that is not a bool', yaml: `jwt:\n${jwt({ rules: '[{expression: "claims.hd"}, {expression: "\'yes\'"}, {expression: "size(claims.groups)"}]' })}`,
    errors: [
      'jwt[0].claimValidationRules[0].expression: Invalid value: "claims.hd": must evaluate to bool',
      'jwt[0].claimValidationRules[1].expression: Invalid value: "\'yes\'": must evaluate to bool',
      'jwt[0].claimValidationRules[2].expression: Invalid value: "size(claims.groups)": must evaluate to bool',
    ] },
  { name: 'a CEL syntax error', yaml: `jwt:\n${jwt({ rules: '[{expression: "claims.hd =="}]' })}`,
    errors: [/^jwt\[0\]\.claimValidationRules\[0\]\.expression: Invalid value: "claims\.hd ==": compilation failed: ERROR: <input>:1:/] },
  { name: 'an undeclared variable', yaml: `jwt:\n${jwt({ mappings: '{username: {expression: "foo.bar"}}' })}`,
    errors: [/^jwt\[0\]\.claimMappings\.username\.expression: Invalid value: "foo\.bar": compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo' \(in container ''\)/] },
  { name: 'comprehension variables are declared', yaml: `jwt:\n${jwt({ mappings: '{username: {claim: sub, prefix: ""}, groups: {expression: "claims.g.map(x, x + \'!\')"}}', rules: '[{expression: "claims.g.all(x, x != \'\')"}]' })}`, errors: [] },
  { name: 'username with claim and expression', yaml: `jwt:\n${jwt({ mappings: '{username: {claim: sub, expression: "claims.sub"}}' })}`,
    errors: ["jwt[0].claimMappings.username: Invalid value: \"\": claim and expression can't both be set"] },
  { name: 'username with neither', yaml: `jwt:\n${jwt({ mappings: '{username: {prefix: x}}' })}`,
    errors: ['jwt[0].claimMappings.username: Required value: claim or expression is required'] },
  { name: 'a claim without prefix', yaml: `jwt:\n${jwt({ mappings: '{username: {claim: sub}, groups: {claim: groups}}' })}`,
    errors: [
      'jwt[0].claimMappings.username.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing',
      'jwt[0].claimMappings.groups.prefix: Required value: prefix is required when claim is set. It can be set to an empty string to disable prefixing',
    ] },
  { name: 'an expression with a prefix', yaml: `jwt:\n${jwt({ mappings: '{username: {expression: "claims.sub", prefix: "p:"}}' })}`,
    errors: ['jwt[0].claimMappings.username.prefix: Invalid value: "p:": may not be specified when expression is set'] },
  { name: 'uid with claim and expression', yaml: `jwt:\n${jwt({ mappings: '{username: {claim: sub, prefix: ""}, uid: {claim: sub, expression: "claims.sub"}}' })}`,
    errors: ["jwt[0].claimMappings.uid: Invalid value: \"\": claim and expression can't both be set"] },
  { name: 'extra keys: not prefixed, not lowercase, reserved, duplicate, no expression',
    yaml: `jwt:\n${jwt({ mappings: '{username: {claim: sub, prefix: ""}, extra: [{key: foo, valueExpression: "claims.a"}, {key: "Example.com/Foo", valueExpression: "claims.a"}, {key: "authentication.platform/x", valueExpression: "claims.a"}, {key: "example.com/a", valueExpression: "claims.a"}, {key: "example.com/a", valueExpression: "claims.b"}, {key: "example.com/b"}]}' })}`,
    errors: [
      'jwt[0].claimMappings.extra[0].key: Invalid value: "foo": must be a domain-prefixed path (such as "acme.io/foo")',
      `jwt[0].claimMappings.extra[1].key: Invalid value: "Example.com": ${DNS_MSG}`,
      'jwt[0].claimMappings.extra[1].key: Invalid value: "Example.com/Foo": must be lowercase',
      'jwt[0].claimMappings.extra[2].key: Invalid value: "authentication.platform/x": platform, k8s.io, kubernetes.io and their subdomains are reserved for platform use',
      'jwt[0].claimMappings.extra[4].key: Duplicate value: "example.com/a"',
      'jwt[0].claimMappings.extra[5].valueExpression: Required value',
    ] },
  { name: 'an extra key with a bad path', yaml: `jwt:\n${jwt({ mappings: '{username: {claim: sub, prefix: ""}, extra: [{key: "example.com/a b", valueExpression: "claims.a"}]}' })}`,
    errors: ["jwt[0].claimMappings.extra[0].key: Invalid value: \"a b\": Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')"] },
  { name: 'claims.email without claims.email_verified', yaml: `jwt:\n${jwt({ mappings: '{username: {expression: "claims.email"}}' })}`,
    errors: [`jwt[0].claimMappings.username.expression: Invalid value: "claims.email": ${EMAIL_RULE}`] },
  { name: 'claims.email with email_verified in a claim rule', yaml: `jwt:\n${jwt({ mappings: '{username: {expression: "claims.email"}}', rules: '[{expression: "claims.email_verified == true"}]' })}`, errors: [] },
  { name: 'claims.email with email_verified in the username', yaml: `jwt:\n${jwt({ mappings: '{username: {expression: "claims.email_verified ? claims.email : \'\'"}}' })}`, errors: [] },
  { name: 'user rules: empty, duplicate, unknown field, not a bool',
    yaml: `jwt:\n${jwt({ user: '[{message: x}, {expression: "user.uid != \'\'"}, {expression: "user.uid != \'\'"}, {expression: "user.name == \'x\'"}, {expression: "user.username"}, {expression: "claims.sub == \'x\'"}]' })}`,
    errors: [
      'jwt[0].userValidationRules[0].expression: Required value',
      'jwt[0].userValidationRules[2].expression: Duplicate value: "user.uid != \'\'"',
      /^jwt\[0\]\.userValidationRules\[3\]\.expression: Invalid value: "user\.name == 'x'": compilation failed: ERROR: <input>:1:5: undefined field 'name'/,
      'jwt[0].userValidationRules[4].expression: Invalid value: "user.username": must evaluate to bool',
      /^jwt\[0\]\.userValidationRules\[5\]\.expression: Invalid value: "claims\.sub == 'x'": compilation failed: ERROR: <input>:1:1: undeclared reference to 'claims'/,
    ] },
  { name: 'anonymous disabled with conditions', yaml: 'anonymous:\n  enabled: false\n  conditions: [{path: /healthz}]',
    errors: ['anonymous.conditions: Invalid value: [{"path":"/healthz"}]: enabled should be set to true when conditions are defined'] },
  { name: 'more than 64 authenticators', yaml: `jwt:\n${Array.from({ length: 65 }, (_, i) => jwt({ issuer: `{url: "https://i${i}.example", audiences: [a]}` })).join('\n')}`,
    errors: ['jwt: Too many: 65: must have at most 64 items'] },
];

describe('ValidateAuthenticationConfiguration', () => {
  for (const c of cases) {
    it(c.name, () => {
      const got = errorsOf(c.yaml);
      assert.equal(got.length, c.errors.length, got.join('\n'));
      c.errors.forEach((want, i) => {
        if (typeof want === 'string') assert.equal(got[i], want);
        else assert.match(got[i]!, want);
      });
    });
  }

  it('accepts a real CA bundle', () => {
    const pem = makeCa().certificatePem;
    const indented = pem.trim().split('\n').map((l) => `      ${l}`).join('\n');
    assert.deepEqual(errorsOf(`jwt:\n- issuer:\n    url: https://issuer.example\n    audiences: [a]\n    certificateAuthority: |\n${indented}\n  claimMappings: {username: {claim: sub, prefix: ""}}`), []);
  });
});

describe('decoding the file', () => {
  const bad: Array<[string, string, string | RegExp]> = [
    ['empty', '', 'empty config data'],
    ['an unknown field', `${HEAD}jwt:\n- issuer: {url: "https://i.example", audiences: [a], foo: 1}\n  claimMappings: {username: {claim: sub, prefix: ""}}\n  bar: 2\n`,
      'strict decoding error: unknown field "jwt[0].issuer.foo", unknown field "jwt[0].bar"'],
    ['a wrong type', `${HEAD}jwt:\n- issuer: {url: 5}\n`, 'json: cannot unmarshal number into Go struct field Issuer.jwt.issuer.url of type string'],
    ['a wrong version', 'apiVersion: apiserver.platform/v1\nkind: AuthenticationConfiguration\n', /^no kind "AuthenticationConfiguration" is registered for version "apiserver\.platform\/v1"/],
    ['a wrong kind', 'apiVersion: apiserver.platform/v1beta1\nkind: AuthorizationConfiguration\n', /^no kind "AuthorizationConfiguration" is registered/],
    ['no kind', 'apiVersion: apiserver.platform/v1beta1\n', /^Object 'Kind' is missing/],
    // One line: the yaml package's place, without the source it quotes below it.
    ['text that is not YAML', `${HEAD}jwt: [\n`, 'error converting YAML to JSON: Flow sequence in block collection must be sufficiently indented and end with a ] at line 4, column 1'],
  ];
  for (const [name, text, want] of bad) {
    it(`refuses ${name}`, () => {
      assert.throws(() => parseAuthenticationConfiguration(text), (e: unknown) => e instanceof Error && (typeof want === 'string' ? e.message === want : want.test(e.message)));
    });
  }

  it('reads JSON too, and keeps an empty prefix apart from an absent one', () => {
    const c = parseAuthenticationConfiguration(JSON.stringify({
      apiVersion: 'apiserver.platform/v1beta1', kind: 'AuthenticationConfiguration',
      jwt: [{ issuer: { url: 'https://i.example', audiences: ['a'] }, claimMappings: { username: { claim: 'sub', prefix: '' }, groups: { claim: 'g', prefix: null } } }],
      anonymous: { enabled: true, conditions: [{ path: '/livez' }] },
    }));
    assert.equal(c.jwt[0]!.claimMappings.username.prefix, '');
    assert.equal(c.jwt[0]!.claimMappings.groups.prefix, undefined);
    assert.deepEqual(c.anonymous, { enabled: true, conditions: [{ path: '/livez' }] });
    assert.equal(c.hasJwt, true);
  });

  it('reads plain scalars by YAML 1.1, as sigs.k8s.io/yaml does: yes/on/y are true, no/off/n false', () => {
    for (const [text, want] of [['yes', true], ['On', true], ['y', true], ['no', false], ['off', false], ['N', false]] as const) {
      const c = parseAuthenticationConfiguration(`${HEAD}anonymous: {enabled: ${text}}\n`);
      assert.equal(c.anonymous?.enabled, want, text);
    }
    // A quoted scalar stays a string, and a string is no boolean.
    assert.throws(() => parseAuthenticationConfiguration(`${HEAD}anonymous: {enabled: "yes"}\n`), /cannot unmarshal string/);
  });
});

describe('the --oidc-* flags as a JWTAuthenticator (spec 01 equivalences)', () => {
  const fromArgs = (args: string[]) => {
    const f = new Flags();
    for (const spec of OIDC_FLAGS) f.define(spec);
    f.parse(['--oidc-issuer-url', 'https://issuer.example', '--oidc-client-id', 'cid', ...args]);
    return jwtAuthenticatorFromFlags(f);
  };
  const username = (args: string[]) => fromArgs(args).claimMappings.username;

  it('defaults the claim to sub, prefixed with the issuer URL and #', () => {
    assert.deepEqual(username([]), { claim: 'sub', prefix: 'https://issuer.example#', expression: '' });
  });
  it('prefix - means no prefix; claim email gets none; a given prefix is kept', () => {
    assert.equal(username(['--oidc-username-prefix', '-']).prefix, '');
    assert.equal(username(['--oidc-username-claim', 'email']).prefix, '');
    assert.equal(username(['--oidc-username-claim', 'name']).prefix, 'https://issuer.example#');
    assert.equal(username(['--oidc-username-prefix', 'oidc:']).prefix, 'oidc:');
  });
  it('client ID becomes the audience, required claims claim rules, groups claim with its prefix', () => {
    const a = fromArgs(['--oidc-groups-claim', 'groups', '--oidc-required-claim', 'hd=example.com', '--oidc-required-claim', 'tier=gold']);
    assert.deepEqual(a.issuer.audiences, ['cid']);
    assert.deepEqual(a.claimMappings.groups, { claim: 'groups', prefix: '', expression: '' });
    assert.deepEqual(a.claimValidationRules.map((r) => [r.claim, r.requiredValue]), [['hd', 'example.com'], ['tier', 'gold']]);
    assert.deepEqual(fromArgs([]).claimMappings.groups, { claim: '', expression: '' });
  });
});

describe('start-up errors', () => {
  const plugins = [OidcAuthenticator, AnonymousAuthenticator];
  const refuses = (args: string[], message: string | RegExp) => assert.throws(() => boot(plugins, args),
    (e: unknown) => e instanceof StartupError && (typeof message === 'string' ? e.message === message : message.test(e.message)), args.join(' '));
  const withJwt = write(`${HEAD}jwt:\n${jwt()}\n`);

  it('refuses the file with a jwt section together with any --oidc-* flag', () => {
    refuses(['--authentication-config', withJwt, '--oidc-username-claim', 'sub'], FILE_AND_FLAGS_EXCLUSIVE);
    refuses(['--authentication-config', withJwt, '--oidc-issuer-url', 'https://x.example', '--oidc-client-id', 'c'], FILE_AND_FLAGS_EXCLUSIVE);
  });

  it('wants --oidc-issuer-url and --oidc-client-id together', () => {
    refuses(['--oidc-issuer-url', 'https://x.example'], FLAGS_MUST_GO_TOGETHER);
    refuses(['--oidc-client-id', 'c'], FLAGS_MUST_GO_TOGETHER);
    refuses(['--oidc-groups-claim', 'groups'], FLAGS_MUST_GO_TOGETHER);
    assert.equal(FLAGS_MUST_GO_TOGETHER, 'oidc-issuer-url and oidc-client-id must be specified together when any oidc-* flags are set');
    assert.equal(FILE_AND_FLAGS_EXCLUSIVE, 'authentication-config file and oidc-* flags are mutually exclusive');
  });

  it('validates the flags as a configuration: https issuer, CA file', () => {
    refuses(['--oidc-issuer-url', 'http://x.example', '--oidc-client-id', 'c'],
      'invalid authentication configuration: jwt[0].issuer.url: Invalid value: "http://x.example": URL scheme must be https');
    refuses(['--oidc-issuer-url', 'https://x.example', '--oidc-client-id', 'c', '--oidc-ca-file', join(dir, 'absent.crt')],
      `--oidc-ca-file: open ${join(dir, 'absent.crt')}: no such file or directory`);
    refuses(['--oidc-issuer-url', 'https://x.example', '--oidc-client-id', 'c', '--oidc-username-claim', ''],
      'invalid authentication configuration: jwt[0].claimMappings.username: Required value: claim or expression is required');
  });

  it('refuses an unreadable or invalid file, naming it', async () => {
    const missing = join(dir, 'absent.yaml');
    refuses(['--authentication-config', missing], `failed to load authentication configuration from file ${JSON.stringify(missing)}: open ${missing}: no such file or directory`);
    const invalid = write(`${HEAD}jwt:\n${jwt({ issuer: '{url: "http://issuer.example", audiences: [a]}' })}\n`);
    refuses(['--authentication-config', invalid],
      `invalid authentication configuration in file ${JSON.stringify(invalid)}: jwt[0].issuer.url: Invalid value: "http://issuer.example": URL scheme must be https`);
    const several = write(`${HEAD}jwt:\n${jwt({ issuer: '{url: "http://issuer.example", audiences: []}' })}\n`);
    refuses(['--authentication-config', several], /: \[jwt\[0\]\.issuer\.url: Invalid value: "http:\/\/issuer\.example": URL scheme must be https, jwt\[0\]\.issuer\.audiences: Required value: at least one jwt\[0\]\.issuer\.audiences is required\]$/);
    await assert.rejects(startInProcess({ args: ['--authentication-config', invalid] }),
      (e: unknown) => e instanceof StartupError && e.exitCode === 1 && e.message.includes(invalid) && e.message.includes('jwt[0].issuer.url'));
  });

  it('refuses an anonymous section together with an explicit --anonymous-auth, but not the plat all default', () => {
    const anon = write(`${HEAD}anonymous: {enabled: true}\n`);
    refuses(['--authentication-config', anon, '--anonymous-auth=true'], 'authentication-config file and anonymous-auth flag are mutually exclusive');
    const { host } = boot(plugins, ['--authentication-config', anon]);
    // As upstream, the file makes a JWT authenticator even without `jwt` entries (a reload may add some).
    assert.deepEqual(host.hooks.authenticate.taps.map((t) => t.name), ['OidcAuthenticator', 'BearerTokenAuthenticator', 'AnonymousAuthenticator']);
    host.hooks.shutdown.callAsync(() => {});
  });

  it('with a file that has no jwt section, the --oidc-* flags configure the JWT authenticator', () => {
    const anon = write(`${HEAD}anonymous: {enabled: false}\n`);
    const { host } = boot(plugins, ['--authentication-config', anon, '--oidc-issuer-url', 'https://x.example', '--oidc-client-id', 'c']);
    assert.deepEqual(host.hooks.authenticate.taps.map((t) => t.name), ['OidcAuthenticator', 'BearerTokenAuthenticator']);
    host.hooks.shutdown.callAsync(() => {});
  });
});
