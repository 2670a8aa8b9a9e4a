// One JWT authenticator (one issuer), built from the --oidc-* flags or one `jwt` entry of the
// authentication configuration file, checking a token as upstream's oidc.go and go-oidc v2 do, in
// their order: registered claims decoded as Go decodes them, iss, one audience, exp (no leeway),
// nbf (a minute of leeway), algorithm, signature, several audiences; then the claim mappings, the
// claim validation rules and the user validation rules. Every refusal is an OidcError whose
// message is upstream's.
import { decodeJwt, isJoseAlgorithm, verifySignature, type DecodedJwt, type JoseAlgorithm } from '../../core/authn/jwt.js';
import { goQuote } from '../../core/go-quote.js';
import type { UserInfo } from '../../core/authn/user.js';
import type { JWTAuthenticator } from '../../core/authn/authentication-config/index.js';
import type { CelValue } from '@bufbuild/cel';
import { CelEvaluationError, celInput, celStringList, evaluate, type CelCompiler, type CompiledExpression } from './cel.js';
import { ClaimsDecodeError, decodeIdToken, goBefore, type IdToken } from './id-token.js';
import { goUnixTimeText } from '../../core/go-time-text.js';
import { KeyFetchError, type RemoteKeySet } from './remote-key-set.js';

export class OidcError extends Error {
  override readonly name = 'OidcError';
}

/** go-oidc v2: not-before is checked with a minute of clock skew allowed; expiry with none. */
export const NBF_LEEWAY_SECONDS = 60n;
export const GOOGLE_ISSUER = 'https://accounts.google.com';
export const GOOGLE_ISSUER_NO_SCHEME = 'accounts.google.com';

interface Mapper {
  readonly username?: CompiledExpression;
  readonly groups?: CompiledExpression;
  readonly uid?: CompiledExpression;
  readonly extra: readonly { key: string; expr: CompiledExpression }[];
  readonly claimValidation: readonly { expr: CompiledExpression; message: string }[];
  readonly userValidation: readonly { expr: CompiledExpression; message: string }[];
}

export interface JwtAuthenticatorOptions {
  readonly config: JWTAuthenticator;
  readonly signingAlgs: readonly JoseAlgorithm[];
  readonly compiler: CelCompiler;
  readonly keys: RemoteKeySet;
  readonly now?: () => number;
}

type Claims = Readonly<Record<string, unknown>>;
const has = (c: Claims, k: string) => Object.prototype.hasOwnProperty.call(c, k);
const goJson = (v: unknown): string => (typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'bool' : Array.isArray(v) ? 'array' : typeof v);
const goTypeError = (v: unknown, type: string) => `json: cannot unmarshal ${goJson(v)} into Go value of type ${type}`;
/** json.Unmarshal of a claim into a Go string: null leaves it empty. */
function goString(v: unknown, why: (err: string) => string): string {
  if (v === null) return '';
  if (typeof v !== 'string') throw new OidcError(why(goTypeError(v, 'string')));
  return v;
}
const goQuoteList = (l: readonly string[]) => `[${l.map(goQuote).join(' ')}]`;
/** Go's string order (sets.List sorts so): by UTF-8 bytes. */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

export class JwtAuthenticator {
  readonly config: JWTAuthenticator;
  readonly #algs: readonly JoseAlgorithm[];
  readonly #keys: RemoteKeySet;
  readonly #now: () => number;
  readonly #realClock: boolean;
  readonly #m: Mapper;

  constructor(o: JwtAuthenticatorOptions) {
    this.config = o.config;
    this.#algs = o.signingAlgs;
    this.#keys = o.keys;
    this.#now = o.now ?? Date.now;
    this.#realClock = o.now === undefined;
    const m = o.config.claimMappings;
    const c = o.compiler;
    this.#m = {
      ...(m.username.expression ? { username: c.program(m.username.expression, 'claimMapping') } : {}),
      ...(m.groups.expression ? { groups: c.program(m.groups.expression, 'claimMapping') } : {}),
      ...(m.uid.expression ? { uid: c.program(m.uid.expression, 'claimMapping') } : {}),
      extra: m.extra.map((e) => ({ key: e.key, expr: c.program(e.valueExpression, 'extraMapping') })),
      claimValidation: o.config.claimValidationRules.filter((r) => r.expression)
        .map((r) => ({ expr: c.program(r.expression, 'claimValidation'), message: r.message })),
      userValidation: o.config.userValidationRules.map((r) => ({ expr: c.program(r.expression, 'userValidation'), message: r.message })),
    };
  }

  get issuerUrl(): string { return this.config.issuer.url; }
  get keySet(): RemoteKeySet { return this.#keys; }

  /** The user a token of this issuer stands for; throws OidcError when it is refused. */
  async authenticate(token: string): Promise<UserInfo> {
    if (!this.#keys.initialized) {
      this.#keys.nudge();
      throw new OidcError('oidc: authenticator not initialized');
    }
    const claims = await this.#verify(token);
    return this.#map(claims);
  }

  async #verify(token: string): Promise<Claims> {
    const fail = (why: string): never => { throw new OidcError(`oidc: verify token: ${why}`); };
    let jwt: DecodedJwt;
    try {
      jwt = decodeJwt(token);
    } catch (err) {
      return fail(`oidc: malformed jwt: ${(err as Error).message}`);
    }
    // go-oidc v2's order: the cheap claim checks first, the signature (and any key fetch) last.
    let t: IdToken;
    try {
      t = decodeIdToken(jwt.payload);
    } catch (err) {
      if (err instanceof ClaimsDecodeError) return fail(`oidc: failed to unmarshal claims: ${err.message}`);
      throw err;
    }
    for (const src of Object.values(t.claimNames)) {
      if (src === '') return fail('oidc: failed to obtain source from claim name');
      if (!has(t.claimSources, src)) return fail('oidc: source does not exist');
    }
    // Google has issued `accounts.google.com` without the scheme; go-oidc lets that through for Google only.
    if (t.issuer !== this.issuerUrl && !(this.issuerUrl === GOOGLE_ISSUER && t.issuer === GOOGLE_ISSUER_NO_SCHEME)) {
      return fail(`oidc: id token issued by a different provider, expected ${goQuote(this.issuerUrl)} got ${goQuote(t.issuer)}`);
    }
    const want = [...new Set(this.config.issuer.audiences)];
    if (want.length === 1 && !t.audience.includes(want[0]!)) return fail(`oidc: expected audience ${goQuote(want[0]!)} got ${goQuoteList(t.audience)}`);
    const nowMs = this.#now();
    const nowSec = BigInt(Math.floor(nowMs / 1000));
    const nowNsec = (nowMs - Math.floor(nowMs / 1000) * 1000) * 1_000_000;
    if (goBefore(t.expiry, nowSec) || (t.expiry === nowSec && nowNsec > 0)) {
      return fail(`oidc: token is expired (Token Expiry: ${goUnixTimeText(t.expiry)})`);
    }
    if (t.notBefore !== undefined && goBefore(nowSec + NBF_LEEWAY_SECONDS, t.notBefore)) {
      return fail(`oidc: current time ${goUnixTimeText(nowSec, nowNsec)}${this.#monotonic()} before the nbf (not before) time: ${goUnixTimeText(t.notBefore)}`);
    }
    const alg = typeof jwt.header['alg'] === 'string' ? jwt.header['alg'] : '';
    if (!isJoseAlgorithm(alg) || !this.#algs.includes(alg)) {
      return fail(`oidc: id token signed with unsupported algorithm, expected ${goQuoteList(this.#algs)} got ${goQuote(alg)}`);
    }
    const kid = typeof jwt.header['kid'] === 'string' && jwt.header['kid'] !== '' ? jwt.header['kid'] : undefined;
    try {
      if (!(await this.#signatureVerifies(jwt, alg, kid))) return fail('failed to verify signature: failed to verify id token signature');
    } catch (err) {
      if (err instanceof KeyFetchError) return fail(`failed to verify signature: fetching keys ${err.message}`);
      throw err;
    }
    // oidc.go checks a list of audiences itself, after go-oidc's verification, sorted as a set.
    if (want.length > 1 && !t.audience.some((a) => want.includes(a))) {
      return fail(`oidc: expected audience in ${goQuoteList([...want].sort(byBytes))} got ${goQuoteList(t.audience)}`);
    }
    return jwt.payload;
  }

  /** Go prints time.Now() with its monotonic reading; an injected clock has none. */
  #monotonic(): string {
    if (!this.#realClock) return '';
    const ns = BigInt(Math.round(performance.now() * 1e6));
    const s = ns / 1_000_000_000n;
    return ` m=+${s}.${String(ns % 1_000_000_000n).padStart(9, '0')}`;
  }

  async #signatureVerifies(jwt: DecodedJwt, alg: JoseAlgorithm, kid: string | undefined): Promise<boolean> {
    const tryKeys = (keys: readonly { key: import('node:crypto').KeyObject; alg: string | undefined }[]) =>
      // go-jose's Verify takes the JWK's key and ignores its `alg`: the header's alg, allowed above, decides.
      keys.some((k) => verifySignature(jwt, k.key, alg));
    if (tryKeys(await this.#keys.candidates(kid, false))) return true;
    // go-oidc's RemoteKeySet.verify: no cached key verifies (an unknown kid, no kid, or a key the
    // issuer replaced under the same kid), so the keys are fetched again (through the limiter).
    return tryKeys(await this.#keys.candidates(kid, true));
  }

  #map(c: Claims): UserInfo {
    const input = this.#m.username || this.#m.groups || this.#m.uid || this.#m.extra.length || this.#m.claimValidation.length ? celInput(c) : undefined;
    const name = this.#username(c, input);
    const groups = this.#groups(c, input);
    const uid = this.#uid(c, input);
    const extra = this.#extra(input);
    const user: UserInfo = {
      name, groups,
      ...(uid ? { uid } : {}),
      ...(Object.keys(extra).length ? { extra } : {}),
    };

    for (const rule of this.config.claimValidationRules) {
      if (!rule.claim) continue;
      if (!has(c, rule.claim)) throw new OidcError(`oidc: required claim ${rule.claim} not present in ID token`);
      const v = goString(c[rule.claim], (e) => `oidc: parse claim ${rule.claim}: ${e}`);
      if (v !== rule.requiredValue) throw new OidcError(`oidc: required claim ${rule.claim} value does not match. Got = ${v}, want = ${rule.requiredValue}`);
    }
    this.#checkRules(this.#m.claimValidation, input, 'oidc: error evaluating claim validation expression');
    if (this.#m.userValidation.length) {
      const u = celInput({ username: user.name, uid: user.uid ?? '', groups: user.groups, extra: user.extra ?? {} });
      this.#checkRules(this.#m.userValidation, u, 'oidc: error evaluating user info validation rule');
    }
    return user;
  }

  /** As upstream's mapper: every rule is evaluated first, then the results are checked in order. */
  #checkRules(rules: Mapper['claimValidation'], input: unknown, what: string): void {
    const results = this.#evalAll(rules.map((r) => r.expr), input, `${what}: `);
    rules.forEach(({ expr, message }, i) => {
      const v = results[i];
      if (typeof v !== 'boolean') throw new OidcError(`${what}: validation expression must return a boolean`);
      if (!v) throw new OidcError(`${what}: validation expression '${expr.expression}' failed: ${message}`);
    });
  }

  /** Upstream's mapper.eval: the first runtime error stops it, as `expression '…' resulted in error: …`. */
  #evalAll(exprs: readonly CompiledExpression[], input: unknown, prefix: string): CelValue[] {
    return exprs.map((expr) => {
      try {
        return evaluate(expr, input);
      } catch (err) {
        if (err instanceof CelEvaluationError) throw new OidcError(`${prefix}expression '${expr.expression}' resulted in error: ${err.message}`);
        throw err;
      }
    });
  }

  #eval(expr: CompiledExpression, input: unknown, what: string): CelValue {
    return this.#evalAll([expr], input, `${what}: `)[0]!;
  }

  #username(c: Claims, input: unknown): string {
    if (this.#m.username) {
      const what = 'oidc: error evaluating username claim expression';
      const v = this.#eval(this.#m.username, input, what);
      if (typeof v !== 'string') throw new OidcError(`${what}: username claim expression must return a string`);
      if (v === '') throw new OidcError('oidc: empty username via CEL expression is not allowed');
      return v;
    }
    const { claim, prefix } = this.config.claimMappings.username;
    const what = `oidc: parse username claims ${goQuote(claim)}`;
    if (!has(c, claim)) throw new OidcError(`${what}: claim not present`);
    // A null claim is Go's empty string, and upstream lets an empty username through.
    const v = goString(c[claim], (e) => `${what}: ${e}`);
    if (claim === 'email' && has(c, 'email_verified')) {
      const verified = c['email_verified'];
      if (verified !== null && typeof verified !== 'boolean') throw new OidcError(`oidc: parse 'email_verified' claim: ${goTypeError(verified, 'bool')}`);
      if (verified !== true) throw new OidcError('oidc: email not verified');
    }
    return prefix ? prefix + v : v;
  }

  #groups(c: Claims, input: unknown): string[] {
    const { claim, prefix } = this.config.claimMappings.groups;
    if (claim && has(c, claim)) {
      const v = c[claim];
      // Upstream's stringOrArray: a list of strings (null ones empty), else one string.
      let groups: string[];
      if (Array.isArray(v) && v.every((g) => g === null || typeof g === 'string')) groups = v.map((g) => (g as string | null) ?? '');
      else if (v === null) groups = [];
      else groups = [goString(v, (e) => `oidc: parse groups claim ${goQuote(claim)}: ${e}`)];
      return prefix ? groups.map((g) => prefix + g) : groups;
    }
    if (!this.#m.groups) return [];
    const what = 'oidc: error evaluating group claim expression';
    try {
      return celStringList(this.#eval(this.#m.groups, input, what));
    } catch (err) {
      if (err instanceof CelEvaluationError) throw new OidcError(`${what}: ${err.message}`);
      throw err;
    }
  }

  #uid(c: Claims, input: unknown): string {
    const { claim } = this.config.claimMappings.uid;
    if (claim) {
      const what = `oidc: parse uid claim ${goQuote(claim)}`;
      if (!has(c, claim)) throw new OidcError(`${what}: claim not present`);
      return goString(c[claim], (e) => `${what}: ${e}`);
    }
    if (!this.#m.uid) return '';
    const what = 'oidc: error evaluating uid claim expression';
    const v = this.#eval(this.#m.uid, input, what);
    if (typeof v !== 'string') throw new OidcError(`${what}: uid claim expression must return a string`);
    return v;
  }

  /** Upstream's getExtra: all expressions evaluated (errors unprefixed), then each converted. */
  #extra(input: unknown): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    const results = this.#evalAll(this.#m.extra.map((e) => e.expr), input, '');
    this.#m.extra.forEach(({ key, expr }, i) => {
      let values: string[];
      try {
        values = celStringList(results[i]!);
      } catch (err) {
        if (err instanceof CelEvaluationError) throw new OidcError(`oidc: error evaluating extra claim expression: ${expr.expression}: ${err.message}`);
        throw err;
      }
      if (values.length) out[key] = values;
    });
    return out;
  }
}
