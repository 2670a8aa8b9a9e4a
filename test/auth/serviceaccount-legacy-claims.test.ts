// The legacy token's claims and upstream's legacyValidator checks, table-driven as upstream's
// jwt_test (TestTokenGenerateAndValidate's legacy cases), against in-memory getters: each missing
// claim and a subject of another account in upstream's words, the lookups (--service-account-lookup)
// and what their absence lets through, and the last-used label written at most once a day.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JwtError, type DecodedJwt } from '../../core/authn/jwt.js';
import { legacyTokenClaims, readLegacyClaims } from '../../core/authn/legacy-service-account-token.js';
import { silentLogger } from '../../core/log.js';
import { LegacyValidator } from '../../plugins/serviceaccounts/legacy-validator.js';
import type { ResourceStore } from '../../core/registry/store.js';

const claims = legacyTokenClaims({ namespace: 'ns', serviceAccountName: 'sa', serviceAccountUID: 'uid-1', secretName: 'sa-token' });
const jwt = (payload: Record<string, unknown>): DecodedJwt => ({ header: { alg: 'ES256' }, payload } as unknown as DecodedJwt);
const without = (k: string) => Object.fromEntries(Object.entries(claims).filter(([key]) => key !== k));
const TOKEN = 'the.token.text';

function store(objects: Record<string, any>): () => ResourceStore {
  return () => ({
    get: async (ns: string, name: string) => {
      const o = objects[`${ns}/${name}`];
      if (!o) throw new Error(`"${name}" not found`);
      return o;
    },
  }) as unknown as ResourceStore;
}

describe('legacy token claims', () => {
  it('are refused in legacyValidator\'s order and words', () => {
    const table: [string, Record<string, unknown>, string][] = [
      ['no sub', without('sub'), 'sub claim is missing'],
      ['no namespace', without('platform/serviceaccount/namespace'), 'namespace claim is missing'],
      ['no secret name', without('platform/serviceaccount/secret.name'), 'secretName claim is missing'],
      ['no account name', without('platform/serviceaccount/service-account.name'), 'serviceAccountName claim is missing'],
      ['no account uid', without('platform/serviceaccount/service-account.uid'), 'serviceAccountUID claim is missing'],
      ['another account', { ...claims, sub: 'system:serviceaccount:ns:other' }, 'sub claim is invalid'],
      ['another namespace', { ...claims, sub: 'system:serviceaccount:other:sa' }, 'sub claim is invalid'],
      ['not an account', { ...claims, sub: 'alice' }, 'sub claim is invalid'],
      ['three parts', { ...claims, sub: 'system:serviceaccount:ns:sa:x' }, 'sub claim is invalid'],
    ];
    for (const [name, payload, message] of table) assert.throws(() => readLegacyClaims(jwt(payload)), { name: 'JwtError', message }, name);
    assert.deepEqual(readLegacyClaims(jwt(claims)), { namespace: 'ns', serviceAccountName: 'sa', serviceAccountUID: 'uid-1', secretName: 'sa-token', subject: 'system:serviceaccount:ns:sa' });
  });
});

describe('legacy validator', () => {
  const secret = (o: Record<string, any> = {}) => ({ metadata: { name: 'sa-token', namespace: 'ns', uid: 's-1', ...o['metadata'] }, data: { token: Buffer.from(TOKEN).toString('base64') }, ...o['rest'] });
  const account = (o: Record<string, any> = {}) => ({ metadata: { name: 'sa', namespace: 'ns', uid: 'uid-1', ...o } });
  const req = () => {
    const seen = { warnings: [] as string[], annotations: {} as Record<string, string> };
    return { seen, r: { warn: (t: string) => seen.warnings.push(t), annotate: (k: string, v: string) => { seen.annotations[k] = v; } } as any };
  };
  const validator = (objects: Record<string, any>, o: { lookup?: boolean; now?: Date } = {}) => {
    const marked: string[] = [];
    const v = new LegacyValidator({
      lookup: o.lookup ?? true, secrets: store(objects), serviceAccounts: store(objects), logger: silentLogger,
      markUsed: async (s, date) => { marked.push(`${s.metadata.name}:${date}`); }, now: () => o.now ?? new Date('2026-03-01T23:00:00Z'),
    });
    return { v, marked };
  };

  it('refuses what the lookups find wrong, in upstream\'s words', async () => {
    const table: [string, Record<string, any>, string][] = [
      ['no Secret', { 'ns/sa': account() }, 'token has been invalidated'],
      ['Secret deleting', { 'ns/sa-token': secret({ metadata: { deletionTimestamp: '2026-01-01T00:00:00Z' } }), 'ns/sa': account() }, 'token has been invalidated'],
      ['another token', { 'ns/sa-token': { ...secret(), data: { token: Buffer.from('other').toString('base64') } }, 'ns/sa': account() }, "token does not match server's copy"],
      ['no account', { 'ns/sa-token': secret() }, '"sa" not found'],
      ['account deleting', { 'ns/sa-token': secret(), 'ns/sa': account({ deletionTimestamp: '2026-01-01T00:00:00Z' }) }, 'ServiceAccount ns/sa has been deleted'],
      ['account of another uid', { 'ns/sa-token': secret(), 'ns/sa': account({ uid: 'uid-2' }) }, 'ServiceAccount UID (uid-2) does not match claim (uid-1)'],
    ];
    for (const [name, objects, message] of table) {
      await assert.rejects(validator(objects).v.validate(jwt(claims), TOKEN, req().r), (e: unknown) => e instanceof JwtError && e.message === message, name);
    }
  });

  it('without --service-account-lookup takes the claims alone', async () => {
    const user = await validator({}, { lookup: false }).v.validate(jwt(claims), TOKEN, req().r);
    assert.deepEqual(user, { name: 'system:serviceaccount:ns:sa', uid: 'uid-1', groups: ['system:serviceaccounts', 'system:serviceaccounts:ns'] });
  });

  it('labels the Secret used unless it says today or tomorrow (UTC), refused or not', async () => {
    const cases: [string | undefined, boolean][] = [[undefined, true], ['2026-02-28', true], ['2026-03-01', false], ['2026-03-02', false], ['2026-03-03', true]];
    for (const [lastUsed, writes] of cases) {
      const labels = lastUsed ? { 'platform/legacy-token-last-used': lastUsed } : {};
      const { v, marked } = validator({ 'ns/sa-token': secret({ metadata: { labels } }), 'ns/sa': account() });
      await v.validate(jwt(claims), TOKEN, req().r);
      assert.deepEqual(marked, writes ? ['sa-token:2026-03-01'] : [], String(lastUsed));
    }
    const { v, marked } = validator({ 'ns/sa-token': secret({ metadata: { labels: { 'platform/legacy-token-invalid-since': '2026-01-01' } } }), 'ns/sa': { ...account(), secrets: [{ name: 'sa-token' }] } });
    const { seen, r } = req();
    await assert.rejects(v.validate(jwt(claims), TOKEN, r), /has been marked invalid/);
    assert.deepEqual(marked, ['sa-token:2026-03-01']);
    assert.deepEqual(seen.annotations, { 'authentication.platform/legacy-token-autogenerated-secret': 'sa-token', 'authentication.platform/legacy-token-invalidated': 'sa-token/ns' });
    assert.equal(seen.warnings.length, 1);
  });
});
