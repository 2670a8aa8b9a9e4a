// A JWT in an Authorization header is bytes; go-jose's stripWhitespace ranges over them as UTF-8
// runes. A lone 0xA0 or 0x85 byte is no rune (U+FFFD, not a space) and the token is refused; the
// UTF-8 of U+00A0 (C2 A0) is a space and is stripped. Node hands header values over as Latin-1,
// where those same bytes read the other way round.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { connect } from 'node:tls';
import { startOidcPlat, TestOidcIssuer } from '../helpers/oidc-issuer.js';
import { robotToken } from './robot-token.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

const SELF = '/apis/authentication.platform/v1/selfsubjectreviews';

/**
 * A SelfSubjectReview sent with `bytes` (a Latin-1 string: one char a byte) as the bearer token,
 * written byte for byte (Node's HTTP client would send the header's text as UTF-8).
 */
const selfReview = (plat: RunningPlat, bytes: string): Promise<{ status: number; body: string }> => new Promise((resolve, reject) => {
  const u = new URL(plat.url);
  const body = JSON.stringify({ apiVersion: 'authentication.platform/v1', kind: 'SelfSubjectReview' });
  const head = `POST ${SELF} HTTP/1.1\r\nHost: ${u.host}\r\nAuthorization: Bearer ${bytes}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
  const socket = connect({ host: u.hostname, port: Number(u.port), ca: plat.admin.creds.ca, servername: 'localhost', ALPNProtocols: ['http/1.1'] }, () => socket.end(Buffer.from(head, 'latin1')));
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  socket.on('error', reject);
  socket.on('close', () => {
    const text = Buffer.concat(chunks).toString('utf8');
    resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), body: text.slice(text.indexOf('\r\n\r\n') + 4) });
  });
});
const username = (body: string): string | undefined => (/"username":"([^"]*)"/.exec(body) ?? [])[1];

describe('service-account token bytes in the Authorization header, as go-jose reads them', () => {
  let plat: RunningPlat;
  let token: string;

  before(async () => {
    plat = await startInProcess();
    token = await robotToken(plat.admin);
  });
  after(async () => { await plat?.stop(); });

  it('takes the token as sent', async () => {
    const r = await selfReview(plat, token);
    assert.equal(r.status, 201, r.body);
    assert.equal(username(r.body), 'system:serviceaccount:default:robot');
  });

  it('refuses a lone 0xA0 or 0x85 byte in the signature (invalid UTF-8, no space to go-jose)', async () => {
    const [h, p, s] = token.split('.') as [string, string, string];
    for (const b of ['\u00a0', '\u0085']) {
      const r = await selfReview(plat, `${h}.${p}.${s.slice(0, 9)}${b}${s.slice(9)}`);
      assert.equal(r.status, 401, `byte ${b.charCodeAt(0).toString(16)}: ${r.body}`);
    }
  });

  it('strips the UTF-8 of U+00A0 and of U+0085 in the signature, as unicode.IsSpace does', async () => {
    const [h, p, s] = token.split('.') as [string, string, string];
    for (const utf8 of ['\u00c2\u00a0', '\u00c2\u0085']) {
      const r = await selfReview(plat, `${h}.${p}.${s.slice(0, 9)}${utf8}${s.slice(9)}`);
      assert.equal(r.status, 201, r.body);
      assert.equal(username(r.body), 'system:serviceaccount:default:robot');
    }
  });
});

describe('OIDC token bytes in the Authorization header, as go-jose reads them', () => {
  const issuer = new TestOidcIssuer();
  let plat: RunningPlat;

  before(async () => {
    await issuer.start();
    plat = await startOidcPlat(issuer, async (p, t) => (await selfReview(p, t)).status === 201);
  });
  after(async () => {
    await plat?.stop();
    await issuer.stop();
  });

  it('refuses a lone 0xA0 byte and strips the UTF-8 of U+00A0 in the signature', async () => {
    const [h, p, s] = issuer.sign(issuer.claims()).split('.') as [string, string, string];
    assert.equal((await selfReview(plat, `${h}.${p}.${s.slice(0, 9)}\u00a0${s.slice(9)}`)).status, 401);
    const r = await selfReview(plat, `${h}.${p}.${s.slice(0, 9)}\u00c2\u00a0${s.slice(9)}`);
    assert.equal(r.status, 201, r.body);
    assert.equal(username(r.body), `${issuer.url}#alice-sub`);
  });
});
