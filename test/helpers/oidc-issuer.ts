// A test OIDC issuer over HTTPS on 127.0.0.1, with its own CA: discovery
// (`/.well-known/openid-configuration`) and a JWKS, signing keys that can rotate, and switches to
// break it (HTTP 500, or not listening at all) and heal it. Counts what it served.
import { generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { publicJwk, signJwt, type JoseAlgorithm } from '../../core/authn/jwt.js';
import { makeCa, makeServingCert } from './certs.js';
import { startInProcess, tempDir, type RunningPlat } from './plat.js';

interface SigningKey { readonly kid: string; readonly alg: JoseAlgorithm; readonly key: KeyObject }

export type IssuerMode = 'ok' | 'error500';

export function generateSigningKey(alg: JoseAlgorithm = 'RS256'): KeyObject {
  if (alg.startsWith('ES')) {
    const namedCurve = alg === 'ES256' ? 'prime256v1' : alg === 'ES384' ? 'secp384r1' : 'secp521r1';
    return generateKeyPairSync('ec', { namedCurve }).privateKey;
  }
  return generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
}

export class TestOidcIssuer {
  readonly caPem: string;
  readonly #tls: { cert: string; key: string };
  readonly #path: string;
  #server: https.Server | undefined;
  #port = 0;
  #keys: SigningKey[] = [];
  mode: IssuerMode = 'ok';
  discoveryRequests = 0;
  jwksRequests = 0;
  /** Served as the discovery document's `issuer` (defaults to the URL). */
  advertisedIssuer: string | undefined;

  constructor(opts: { path?: string } = {}) {
    const ca = makeCa({ commonName: 'test-oidc-issuer-ca' });
    const serving = makeServingCert(ca, ['localhost'], ['127.0.0.1']);
    this.caPem = ca.certificatePem;
    this.#tls = { cert: serving.certificatePem, key: serving.privateKeyPem };
    this.#path = opts.path ?? '';
    this.rotate();
  }

  get url(): string { return `https://127.0.0.1:${this.#port}${this.#path}`; }
  get discoveryUrl(): string { return `${this.url}/.well-known/openid-configuration`; }
  get currentKid(): string { return this.#keys[0]!.kid; }

  /** Replaces every signing key with a fresh one (new kid); returns its kid. */
  rotate(alg: JoseAlgorithm = 'RS256'): string {
    const k = { kid: `key-${randomBytes(6).toString('hex')}`, alg, key: generateSigningKey(alg) };
    this.#keys = [k];
    return k.kid;
  }

  /** Replaces the current key with a fresh one under the same kid (an issuer that reuses kids). */
  rekey(): void {
    const k = this.#keys[0]!;
    this.#keys = [{ ...k, key: generateSigningKey(k.alg) }, ...this.#keys.slice(1)];
  }

  /** Adds a key (a fresh one unless given) next to the current ones; it becomes the one `sign` uses. */
  addKey(alg: JoseAlgorithm, key: KeyObject = generateSigningKey(alg)): string {
    const k = { kid: `key-${randomBytes(6).toString('hex')}`, alg, key };
    this.#keys = [k, ...this.#keys];
    return k.kid;
  }

  /** Claims every test token carries unless overridden: iss, aud, sub, iat, exp (+1h). */
  claims(extra: Record<string, unknown> = {}, audience = 'plat-client'): Record<string, unknown> {
    const now = Math.floor(Date.now() / 1000);
    return { iss: this.url, aud: [audience], sub: 'alice-sub', iat: now, exp: now + 3600, ...extra };
  }

  /** Signs `payload` with the current key (or the one given), kid in the header unless `kid: null`. */
  sign(payload: Record<string, unknown>, opts: { key?: KeyObject; alg?: JoseAlgorithm; kid?: string | null; header?: Record<string, unknown> } = {}): string {
    const k = this.#keys[0]!;
    const kid = opts.kid === null ? undefined : opts.kid ?? k.kid;
    return signJwt(payload, opts.key ?? k.key, { alg: opts.alg ?? k.alg, ...(kid !== undefined ? { kid } : {}), ...(opts.header ? { header: opts.header } : {}) });
  }

  async start(): Promise<void> {
    const server = https.createServer(this.#tls, (req, res) => {
      const path = (req.url ?? '').split('?')[0];
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (path === `${this.#path}/.well-known/openid-configuration`) {
        this.discoveryRequests++;
        if (this.mode === 'error500') return send(500, { error: 'broken on purpose' });
        return send(200, { issuer: this.advertisedIssuer ?? this.url, jwks_uri: `${this.url}/keys`, id_token_signing_alg_values_supported: ['RS256', 'ES256'] });
      }
      if (path === `${this.#path}/keys`) {
        this.jwksRequests++;
        if (this.mode === 'error500') return send(500, { error: 'broken on purpose' });
        return send(200, { keys: this.#keys.map((k) => publicJwk(k.key, { kid: k.kid, alg: k.alg })) });
      }
      send(404, { error: 'not found' });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.#port, '127.0.0.1', () => resolve());
    });
    this.#port = (server.address() as AddressInfo).port;
    this.#server = server;
  }

  /** Stops listening (the issuer becomes unreachable); `start()` again serves on the same port. */
  async stop(): Promise<void> {
    const s = this.#server;
    if (!s) return;
    this.#server = undefined;
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
}

/**
 * A `plat all` taking `issuer`'s tokens (the --oidc-* flags, its CA in a file of the run's temp
 * dir), returned once one of them authenticates (`authenticates`: plat fetches the key set on the
 * first token). Stopping plat and the issuer is the caller's.
 */
export async function startOidcPlat(issuer: TestOidcIssuer, authenticates: (plat: RunningPlat, token: string) => Promise<boolean>): Promise<RunningPlat> {
  const caFile = path.join(tempDir(), 'issuer-ca.crt');
  writeFileSync(caFile, issuer.caPem);
  const plat = await startInProcess({ args: ['--oidc-issuer-url', issuer.url, '--oidc-client-id', 'plat-client', '--oidc-ca-file', caFile] });
  const deadline = Date.now() + 20_000;
  while (!(await authenticates(plat, issuer.sign(issuer.claims())))) {
    if (Date.now() > deadline) {
      await plat.stop();
      throw new Error('timed out waiting for the issuer keys');
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return plat;
}
