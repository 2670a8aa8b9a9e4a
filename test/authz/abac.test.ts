// The ABAC authorizer: the policy file's reading (both line formats, comments, errors naming file
// and line), upstream's matching rules as a table, and a policy file end to end over HTTPS.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { authorize } from '../../core/authz/authorize.js';
import { StartupError } from '../../core/plugin.js';
import { AbacAuthorizer, parsePolicyFile, policyMatches, PolicyFileError, type Policy } from '../../plugins/authz-abac/index.js';
import { AuthorizationModeFlag, boot } from '../auth/support.js';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { as, pathAttrs, resourceAttrs, tempDir, writeTokenFile } from './support.js';

const V = 'abac.authorization.platform/v1beta1';
const line = (spec: Record<string, unknown>) => JSON.stringify({ apiVersion: V, kind: 'Policy', spec });
const policy = (over: Partial<Policy>): Policy => ({ user: '', group: '', readonly: false, apiGroup: '', resource: '', namespace: '', nonResourcePath: '', ...over });

describe('ABAC policy file', () => {
  it('reads v1beta1 lines and skips blank lines and # comments', () => {
    const text = [
      '# who may do what',
      line({ user: 'alice', namespace: '*', resource: '*', apiGroup: '*' }),
      '',
      '   # indented comment',
      line({ group: 'ops', readonly: true, nonResourcePath: '/healthz*' }),
      line({ user: '*', namespace: 'default', resource: 'secrets' }),
    ].join('\n');
    assert.deepEqual(parsePolicyFile(text, '/p.jsonl'), {
      legacyLines: 0,
      policies: [
        policy({ user: 'alice', namespace: '*', resource: '*', apiGroup: '*' }),
        policy({ group: 'ops', readonly: true, nonResourcePath: '/healthz*' }),
        // v1beta1: "*" as user or group means every authenticated caller.
        policy({ group: 'system:authenticated', namespace: 'default', resource: 'secrets' }),
      ],
    });
  });

  it('converts the unversioned legacy format as upstream v0 does', () => {
    const { policies, legacyLines } = parsePolicyFile([
      '{"user":"admin"}',
      '{"user":"scheduler","readonly":true,"resource":"pods"}',
      '{"group":"dev","namespace":"projectCaribou"}',
      '{"readonly":true}',
      '{"user":"*","namespace":"ns"}',
    ].join('\n'), '/legacy.jsonl');
    assert.equal(legacyLines, 5);
    assert.deepEqual(policies, [
      policy({ user: 'admin', apiGroup: '*', namespace: '*', resource: '*', nonResourcePath: '*' }),
      policy({ user: 'scheduler', readonly: true, apiGroup: '*', namespace: '*', resource: 'pods' }),
      policy({ group: 'dev', apiGroup: '*', namespace: 'projectCaribou', resource: '*' }),
      policy({ group: 'system:authenticated', readonly: true, apiGroup: '*', namespace: '*', resource: '*', nonResourcePath: '*' }),
      policy({ group: 'system:authenticated', apiGroup: '*', namespace: 'ns', resource: '*' }),
    ]);
  });

  it('refuses a bad line, naming the file, the line number and the line', () => {
    const bad: Array<[string, RegExp]> = [
      ['null', /a policy must be a JSON object/],
      ['user: alice', /not JSON: invalid character 'u' looking for beginning of value/],
      [line({ user: 'alice', namspace: '*' }), /unknown field "spec\.namspace"/],
      [line({ user: 7 }), /spec\.user must be a string/],
      [line({ user: 'a', readonly: 'yes' }), /spec\.readonly must be true or false/],
      [JSON.stringify({ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Policy', spec: { user: 'a' } }),
        /apiVersion "abac\.authorization\.kubernetes\.io\/v1beta1" is not supported: use "abac\.authorization\.platform\/v1beta1" \(plat's is/],
      [JSON.stringify({ apiVersion: V, kind: 'Rule', spec: {} }), /kind "Rule" is not supported/],
      [JSON.stringify({ apiVersion: V, spec: {} }), /kind null is not supported/],
      [JSON.stringify({ kind: 'Policy', spec: { user: 'a' } }), /apiVersion undefined is not supported/],
      [JSON.stringify({ apiVersion: V, kind: 'Policy', spec: { user: 'a' }, extra: 1 }), /unknown field "extra"/],
      ['{"user":"a","apiGroup":"*"}', /unknown field "apiGroup"/],
    ];
    for (const [text, why] of bad) {
      assert.throws(() => parsePolicyFile(`# header\n\n${text}\n`, '/etc/plat/abac.jsonl'), (e: unknown) => {
        assert.ok(e instanceof PolicyFileError);
        assert.ok(e.message.startsWith(`error reading policy file /etc/plat/abac.jsonl, line 3: ${text}: `), e.message);
        assert.match(e.message, why);
        return true;
      }, text);
    }
  });
});

describe('ABAC policy lines the decoder refuses (upstream policyLoadError and Interpret)', () => {
  const F = '/etc/plat/abac.jsonl';
  const cases: Array<[string, string]> = [
    ['{"user":', "couldn't get version/kind; json parse error: unexpected end of JSON input"],
    ['  {"user": "alice"', "couldn't get version/kind; json parse error: unexpected end of JSON input"],
    ['{"user": alice}', "couldn't get version/kind; json parse error: invalid character 'a' looking for beginning of value"],
    ['{"user": "a",}', "couldn't get version/kind; json parse error: invalid character '}' looking for beginning of object key string"],
    ['{"user": "a"} x', "couldn't get version/kind; json parse error: invalid character 'x' after top-level value"],
    ['["user"]', 'couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }'],
    ['"alice"', 'couldn\'t get version/kind; json parse error: json: cannot unmarshal string into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }'],
    ['{"apiVersion": 1, "kind": "Policy"}', "couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .apiVersion of type string"],
  ];
  for (const [text, problem] of cases) {
    it(`${text} -> ${problem}`, () => {
      assert.throws(() => parsePolicyFile(`# header\n${text}\n`, F), (e: unknown) => {
        assert.ok(e instanceof PolicyFileError);
        assert.equal(e.message, `error reading policy file ${F}, line 2: ${text}: ${problem}`);
        return true;
      });
    });
  }
});

describe('ABAC matching (upstream abac.go rules)', () => {
  const alice = { name: 'alice', groups: ['dev', 'system:authenticated'] };
  const anon = { name: 'system:anonymous', groups: ['system:unauthenticated'] };
  const everything = { namespace: '*', resource: '*', apiGroup: '*' };
  const cases: Array<[string, Partial<Policy>, ReturnType<typeof resourceAttrs>, boolean]> = [
    ['user matches', { user: 'alice', ...everything }, resourceAttrs(alice), true],
    ['another user', { user: 'bob', ...everything }, resourceAttrs(alice), false],
    ['group matches', { group: 'dev', ...everything }, resourceAttrs(alice), true],
    ['user matches but group does not', { user: 'alice', group: 'ops', ...everything }, resourceAttrs(alice), false],
    ['neither user nor group matches nobody', { ...everything }, resourceAttrs(alice), false],
    ['user "*" (raw) matches anyone', { user: '*', ...everything }, resourceAttrs(anon), true],
    ['"*" read from a file is system:authenticated, so not anonymous', { group: 'system:authenticated', ...everything }, resourceAttrs(anon), false],
    ['readonly allows get', { user: 'alice', readonly: true, ...everything }, resourceAttrs(alice, { verb: 'get' }), true],
    ['readonly allows list and watch', { user: 'alice', readonly: true, ...everything }, resourceAttrs(alice, { verb: 'watch' }), true],
    ['readonly refuses create', { user: 'alice', readonly: true, ...everything }, resourceAttrs(alice, { verb: 'create' }), false],
    ['namespace exact', { user: 'alice', namespace: 'ns1', resource: '*', apiGroup: '*' }, resourceAttrs(alice, { namespace: 'ns1' }), true],
    ['namespace other', { user: 'alice', namespace: 'ns1', resource: '*', apiGroup: '*' }, resourceAttrs(alice, { namespace: 'ns2' }), false],
    ['empty namespace is cluster scope only', { user: 'alice', resource: '*', apiGroup: '*' }, resourceAttrs(alice, { namespace: 'ns1' }), false],
    ['empty namespace matches cluster scope', { user: 'alice', resource: '*', apiGroup: '*' }, resourceAttrs(alice), true],
    ['resource exact', { user: 'alice', namespace: '*', resource: 'secrets', apiGroup: '' }, resourceAttrs(alice, { resource: 'secrets', apiGroup: '' }), true],
    ['resource other', { user: 'alice', namespace: '*', resource: 'secrets', apiGroup: '*' }, resourceAttrs(alice), false],
    ['empty apiGroup is the core group only', { user: 'alice', namespace: '*', resource: '*' }, resourceAttrs(alice), false],
    ['apiGroup exact', { user: 'alice', namespace: '*', resource: '*', apiGroup: 'certificates.platform' }, resourceAttrs(alice), true],
    ['a resource policy does not match a path', { user: 'alice', ...everything }, pathAttrs(alice, '/version'), false],
    ['nonResourcePath exact', { user: 'alice', nonResourcePath: '/version' }, pathAttrs(alice, '/version'), true],
    ['nonResourcePath "*"', { user: 'alice', nonResourcePath: '*' }, pathAttrs(alice, '/anything'), true],
    ['nonResourcePath prefix', { user: 'alice', nonResourcePath: '/healthz*' }, pathAttrs(alice, '/healthz/ping'), true],
    ['nonResourcePath prefix elsewhere', { user: 'alice', nonResourcePath: '/healthz/*' }, pathAttrs(alice, '/livez'), false],
    ['a path policy does not match a resource', { user: 'alice', nonResourcePath: '*' }, resourceAttrs(alice), false],
    ['readonly path policy refuses post', { user: 'alice', readonly: true, nonResourcePath: '*' }, pathAttrs(alice, '/x', 'post'), false],
  ];
  for (const [name, p, attrs, want] of cases) it(name, () => assert.equal(policyMatches(policy(p), attrs), want));
});

describe('AbacAuthorizer', () => {
  let dir: string;
  before(() => { dir = tempDir('plat-abac-'); });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses at start-up: mode without file, file without mode, a bad line', () => {
    const refuses = (args: string[], pattern: RegExp, exitCode: number) => assert.throws(
      () => boot([AuthorizationModeFlag, AbacAuthorizer], args),
      (e: unknown) => e instanceof StartupError && pattern.test(e.message) && e.exitCode === exitCode, args.join(' '));
    refuses(['--authorization-mode=ABAC'], /^authorization-mode ABAC's authorization policy file not passed$/, 2);
    const file = join(dir, 'p.jsonl');
    writeFileSync(file, `${line({ user: 'a', namespace: '*', resource: '*', apiGroup: '*' })}\n{"user": "b", "namespace": 5}\n`);
    refuses([`--authorization-policy-file=${file}`], /^cannot specify --authorization-policy-file without mode ABAC$/, 2);
    refuses(['--authorization-mode=ABAC', `--authorization-policy-file=${file}`],
      /^invalid authorization config: error reading policy file .*p\.jsonl, line 2: \{"user": "b", "namespace": 5\}: namespace must be a string$/, 1);
    refuses(['--authorization-mode=ABAC', `--authorization-policy-file=${join(dir, 'absent')}`], /^invalid authorization config: open .*absent: no such file or directory$/, 1);
  });

  it('allows or has no opinion, never denies, and warns about legacy lines', async () => {
    const file = join(dir, 'legacy.jsonl');
    writeFileSync(file, '{"user":"alice"}\n');
    const b = boot([AuthorizationModeFlag, AbacAuthorizer], ['--authorization-mode=ABAC', `--authorization-policy-file=${file}`]);
    assert.deepEqual(await authorize(b.host, resourceAttrs({ name: 'alice' })), { decision: 'allow' });
    assert.deepEqual(await authorize(b.host, resourceAttrs({ name: 'bob' })), { decision: 'noOpinion', reason: 'No policy matched.' });
    assert.ok(b.logs.some((l) => l.includes('contained unversioned rules')));
  });
});

describe('ABAC end to end (plat all, --authorization-mode=ABAC)', () => {
  let plat: RunningPlat;
  let dir: string;
  const fx = fixtures();
  const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';

  before(async () => {
    dir = tempDir('plat-abac-e2e-');
    const file = join(dir, 'policy.jsonl');
    writeFileSync(file, [
      '# admins',
      line({ user: 'alice', namespace: '*', resource: '*', apiGroup: '*' }),
      line({ user: 'reader', readonly: true, namespace: '*', resource: '*', apiGroup: '*' }),
      line({ group: 'ops', namespace: 'default', resource: 'secrets', apiGroup: '' }),
      line({ user: '*', readonly: true, nonResourcePath: '/version' }),
      '',
    ].join('\n'));
    const tokens = writeTokenFile(dir, { alice: [], reader: [], olga: ['ops'], nobody: [] });
    plat = await startInProcess({ args: ['--authorization-mode=ABAC', `--authorization-policy-file=${file}`, `--token-auth-file=${tokens}`] });
  });
  after(async () => {
    await plat.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a user with a policy for everything creates a CSR; others are forbidden', async () => {
    assert.equal((await as(plat, 'alice').post(CSRS, baseCsr(fx, 'abac-alice'))).status, 201);
    const res = await as(plat, 'nobody').get(CSRS);
    assert.equal(res.status, 403);
    assert.match(res.json.message, /User "nobody" cannot list resource "certificatesigningrequests"/);
  });

  it('a readonly policy reads but does not write', async () => {
    assert.equal((await as(plat, 'reader').get(`${CSRS}/abac-alice`)).status, 200);
    assert.equal((await as(plat, 'reader').post(CSRS, baseCsr(fx, 'abac-reader'))).status, 403);
  });

  it('a group policy for secrets in one namespace', async () => {
    assert.equal((await as(plat, 'olga').get('/api/v1/namespaces/default/secrets')).status, 200);
    assert.equal((await as(plat, 'olga').get('/api/v1/namespaces/plat-system/secrets')).status, 403);
    assert.equal((await as(plat, 'olga').get(CSRS)).status, 403);
  });

  it('a path policy for every authenticated user', async () => {
    assert.equal((await as(plat, 'nobody').get('/version')).status, 200);
    const res = await as(plat, 'nobody').get('/healthz');
    assert.equal(res.status, 403);
    assert.match(res.json.message, /^forbidden: User "nobody" cannot get path "\/healthz"/);
  });
});
