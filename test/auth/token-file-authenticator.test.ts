import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StartupError } from '../../core/plugin.js';
import { AnonymousAuthenticator } from '../../plugins/authn-anonymous/index.js';
import {
  TokenFileAuthenticator, TokenTable, bearerToken, parseCsv, parseTokenFile, tokenDigest,
} from '../../plugins/authn-token-file/index.js';
import { boot, request } from './support.js';

let dir: string;
let n = 0;
before(() => { dir = mkdtempSync(join(tmpdir(), 'plat-token-file-')); });
after(() => rmSync(dir, { recursive: true, force: true }));

function tokenFile(text: string | Buffer): string {
  const path = join(dir, `tokens-${n++}.csv`);
  writeFileSync(path, text);
  return path;
}

const FILE = [
  'admin-token,admin,uid-1,"system:masters,ops"',
  'plain-token,plain,uid-2',
  '"quoted,token",quoted,uid-3,solo',
  '',
  'dup-token,first,uid-4',
  'dup-token,second,uid-5',
  ',nobody,uid-6',
].join('\r\n') + '\r\n';

describe('TokenFileAuthenticator', () => {
  it('declares --token-auth-file and taps nothing when it is not set', () => {
    const { host, flags } = boot([TokenFileAuthenticator]);
    assert.equal(flags.specs().find((s) => s.name === 'token-auth-file')?.section, 'Authentication options');
    assert.equal(host.hooks.authenticate.taps.length, 0);
  });

  it('authenticates listed bearer tokens with name, uid and groups', async () => {
    const { host, logs } = boot([TokenFileAuthenticator], [`--token-auth-file=${tokenFile(FILE)}`]);
    const auth = async (authorization: string) => {
      const req = request({ headers: { authorization } });
      return { user: await host.hooks.authenticate.promise(req), reasons: req.reasons };
    };
    assert.deepEqual((await auth('Bearer admin-token')).user, { name: 'admin', uid: 'uid-1', groups: ['system:masters', 'ops'] });
    assert.deepEqual((await auth('bearer plain-token')).user, { name: 'plain', uid: 'uid-2', groups: [] });
    assert.deepEqual((await auth('BEARER quoted,token')).user, { name: 'quoted', uid: 'uid-3', groups: ['solo'] });
    assert.equal((await auth('Bearer dup-token')).user?.name, 'second', 'a repeated token: the later record wins');
    // Warnings name the file and record, never the token.
    assert.ok(logs.some((l) => l.includes('duplicate token') && l.includes("record number '5'")));
    assert.ok(logs.some((l) => l.includes('empty token') && l.includes("record number '6'")));
    assert.ok(!logs.some((l) => /admin-token|plain-token|dup-token/.test(l)));
  });

  it('rejects an unknown bearer token, so anonymous does not apply', async () => {
    const { host } = boot([TokenFileAuthenticator, AnonymousAuthenticator], [`--token-auth-file=${tokenFile(FILE)}`]);
    const req = request({ headers: { authorization: 'Bearer wrong' } });
    assert.equal(await host.hooks.authenticate.promise(req), undefined);
    assert.deepEqual(req.reasons, ['invalid bearer token']);
  });

  it('lets a later token authenticator accept a token this file does not know', async () => {
    const { host } = boot([TokenFileAuthenticator], [`--token-auth-file=${tokenFile(FILE)}`]);
    host.hooks.authenticate.tap('LaterTokenAuthenticator', (req) =>
      bearerToken(req.headers) === 'sa-token' ? { name: 'system:serviceaccount:a:b', groups: [] } : undefined);
    const user = await host.hooks.authenticate.promise(request({ headers: { authorization: 'Bearer sa-token' } }));
    assert.equal(user?.name, 'system:serviceaccount:a:b');
  });

  it('ignores requests without a bearer token', async () => {
    const { host } = boot([TokenFileAuthenticator, AnonymousAuthenticator], [`--token-auth-file=${tokenFile(FILE)}`]);
    for (const authorization of [undefined, '', 'Basic YWRtaW46YWRtaW4=', 'Bearer', 'Bearer ', 'Bearer  admin-token']) {
      const req = request({ headers: { authorization } });
      assert.equal((await host.hooks.authenticate.promise(req))?.name, 'system:anonymous', String(authorization));
      assert.deepEqual(req.reasons, []);
    }
  });

  it('fails start-up naming the file and the line', () => {
    const path = tokenFile('good,user,uid\nshort,user\n');
    assert.throws(() => boot([TokenFileAuthenticator], [`--token-auth-file=${path}`]), (e: unknown) =>
      e instanceof StartupError &&
      e.message === `token file '${path}' must have at least 3 columns (token, user name, user uid), found 2 (line 2)`);
    const missing = join(dir, 'absent.csv');
    assert.throws(() => boot([TokenFileAuthenticator], [`--token-auth-file=${missing}`]), (e: unknown) =>
      e instanceof StartupError && e.message.includes(missing));
  });
});

describe('bearerToken', () => {
  it('reads the token as upstream does', () => {
    assert.equal(bearerToken({ authorization: 'Bearer abc' }), 'abc');
    assert.equal(bearerToken({ authorization: '  bEaReR abc  ' }), 'abc');
    assert.equal(bearerToken({ authorization: 'Bearer abc def' }), 'abc', 'text after the token is ignored');
    assert.equal(bearerToken({ authorization: ['Bearer first', 'Bearer second'] }), 'first');
    assert.equal(bearerToken({ authorization: 'Bearer\tabc' }), undefined, 'only a space separates');
    assert.equal(bearerToken({ authorization: 'Token abc' }), undefined);
    assert.equal(bearerToken({}), undefined);
  });
});

describe('token file format', () => {
  it('parses CSV like Go encoding/csv', () => {
    const records = parseCsv('a,"b ""q"" c","multi\nline",d\n\n  \n#x,y,z\r\nlast,"",x');
    assert.deepEqual(records, [
      { fields: ['a', 'b "q" c', 'multi\nline', 'd'], line: 1 },
      { fields: ['  '], line: 4 },
      { fields: ['#x', 'y', 'z'], line: 5 },
      { fields: ['last', '', 'x'], line: 6 },
    ]);
  });

  it('reports quote errors with Go\'s wording and position', () => {
    assert.throws(() => parseCsv('ok,ok,ok\nto"ken,u,i\n'), { message: 'parse error on line 2, column 3: bare " in non-quoted-field' });
    assert.throws(() => parseCsv('"tok"en,u,i\n'), { message: 'parse error on line 1, column 5: extraneous or missing " in quoted-field' });
    assert.throws(() => parseCsv('a,"open\nnever closed\n'), { message: 'record on line 1; parse error on line 2, column 14: extraneous or missing " in quoted-field' });
  });

  it('turns CSV errors into start-up errors naming the file', () => {
    assert.throws(() => parseTokenFile('t,u,"i\n', '/etc/tokens.csv'), (e: unknown) =>
      e instanceof StartupError && e.message === `token file '/etc/tokens.csv': parse error on line 1, column 8: extraneous or missing " in quoted-field`);
  });

  it('splits the group column on commas as is, and ignores extra columns', () => {
    const { entries } = parseTokenFile('t1,u,i,,extra\nt2,u,i,"a,,b"\n', 'f');
    assert.deepEqual(entries.map((e) => e.user.groups), [[''], ['a', '', 'b']]);
  });

  it('keeps the bytes of non-ASCII tokens and decodes names as UTF-8', async () => {
    const path = tokenFile(Buffer.from('tök€n,jürgen,uid\n', 'utf8'));
    const { host } = boot([TokenFileAuthenticator], [`--token-auth-file=${path}`]);
    // Node hands header values over as latin1 strings: one char per byte.
    const header = `Bearer ${Buffer.from('tök€n', 'utf8').toString('latin1')}`;
    const user = await host.hooks.authenticate.promise(request({ headers: { authorization: header } }));
    assert.equal(user?.name, 'jürgen');
    const wide = request({ headers: { authorization: 'Bearer tök€n' } });
    assert.equal(await host.hooks.authenticate.promise(wide), undefined, 'chars above 0xff never match');
  });
});

describe('TokenTable', () => {
  it('compares the digest against every entry, whether it matches first, last or not at all', () => {
    const { entries } = parseTokenFile('t0,u0,i\nt1,u1,i\nt2,u2,i\nt3,u3,i\n', 'f');
    const calls: Array<[Buffer, Buffer]> = [];
    const table = new TokenTable(entries, (a, b) => { calls.push([a, b]); return a.equals(b); });
    for (const [token, name] of [['t0', 'u0'], ['t3', 'u3'], ['nope', undefined]] as const) {
      calls.length = 0;
      assert.equal(table.lookup(token)?.name, name);
      assert.equal(calls.length, 4, `all entries compared for ${token}`);
      assert.ok(calls.every(([a, b]) => a.length === 32 && b.length === 32), 'fixed-length SHA-256 digests');
      assert.ok(calls.every(([a]) => a.equals(tokenDigest(token))));
    }
  });

  it('uses crypto.timingSafeEqual by default', () => {
    const { entries } = parseTokenFile('secret,u,i\n', 'f');
    const table = new TokenTable(entries);
    assert.equal(table.lookup('secret')?.name, 'u');
    assert.equal(table.lookup('secreT'), undefined);
    assert.equal(table.lookup(''), undefined);
  });
});
