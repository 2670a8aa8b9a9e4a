// One JWT authenticator (one issuer), built from the --oidc-* flags or one `jwt` entry of the
// authentication configuration file, checking a token as upstream's oidc.go and go-oidc do:
// algorithm in the allowed set, signature by the issuer's key, iss, aud, exp (no leeway), nbf
// (5 minutes of leeway), then the claim mappings, the claim validation rules and the user
// validation rules. Every refusal is an OidcError whose message is upstream's.
import {
  JwtError, audiences as audiencesOf, decodeJwt, isJoseAlgorithm, numericDateMs, verifySignature,
  type DecodedJwt, type JoseAlgorithm,
} from '../../core/authn/jwt.js';
import type { UserInfo } from '../../core/authn/user.js';
import type { JWTAuthenticator } from '../../core/authn/authentication-config/index.js';
import { CelEvaluationError, celInput, celStringList, evaluate, type CelCompiler, type CompiledExpression } from './cel.js';
import type { RemoteKeySet } from './remote-key-set.js';

export class OidcError extends Error {
  override readonly name = 'OidcError';
}

/** go-oidc: not-before is checked with this much clock skew allowed; expiry with none. */
export const NBF_LEEWAY_MS = 5 * 60_000;

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
const goJson = (v: unknown): string => (typeof v === 'number' ? 'number' : typeof v === 'boolean' ? 'bool' : Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v);
const goQuoteList = (l: readonly string[]) => `[${l.map((s) => JSON.stringify(s)).join(' ')}]`;

export class JwtAuthenticator {
  readonly config: JWTAuthenticator;
  readonly #algs: readonly JoseAlgorithm[];
  readonly #keys: RemoteKeySet;
  readonly #now: () => number;
  readonly #m: Mapper;

  constructor(o: JwtAuthenticatorOptions) {
    this.config = o.config;
    this.#algs = o.signingAlgs;
    this.#keys = o.keys;
    this.#now = o.now ?? Date.now;
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
    const alg = jwt.header['alg'];
    if (!isJoseAlgorithm(alg) || !this.#algs.includes(alg)) {
      return fail(`oidc: id token signed with unsupported algorithm, expected ${goQuoteList(this.#algs)} got ${JSON.stringify(typeof alg === 'string' ? alg : '')}`);
    }
    const kid = typeof jwt.header['kid'] === 'string' ? jwt.header['kid'] : undefined;
    if (!(await this.#signatureVerifies(jwt, alg, kid))) return fail('failed to verify signature: failed to verify id token signature');

    const c = jwt.payload;
    if (c['iss'] !== this.issuerUrl) {
      return fail(`oidc: id token issued by a different provider, expected ${JSON.stringify(this.issuerUrl)} got ${JSON.stringify(c['iss'] ?? '')}`);
    }
    let aud: string[];
    let exp: number | undefined;
    let nbf: number | undefined;
    try {
      aud = audiencesOf(c);
      exp = numericDateMs(c, 'exp');
      nbf = numericDateMs(c, 'nbf');
      numericDateMs(c, 'iat');
    } catch (err) {
      if (err instanceof JwtError) return fail(`oidc: failed to unmarshal claims: ${err.message}`);
      throw err;
    }
    const want = this.config.issuer.audiences;
    if (!aud.some((a) => want.includes(a))) {
      return fail(want.length === 1
        ? `oidc: expected audience ${JSON.stringify(want[0])} got ${goQuoteList(aud)}`
        : `oidc: expected audience in ${goQuoteList(want)} got ${goQuoteList(aud)}`);
    }
    const now = this.#now();
    // A token without exp has go-oidc's zero expiry: always expired.
    if (exp === undefined || exp < now) return fail(`oidc: token is expired (Token Expiry: ${new Date(exp ?? 0).toISOString()})`);
    if (nbf !== undefined && now + NBF_LEEWAY_MS < nbf) {
      return fail(`oidc: current time ${new Date(now).toISOString()} before the nbf (not before) time: ${new Date(nbf).toISOString()}`);
    }
    return c;
  }

  async #signatureVerifies(jwt: DecodedJwt, alg: JoseAlgorithm, kid: string | undefined): Promise<boolean> {
    const tryKeys = (keys: readonly { key: import('node:crypto').KeyObject; alg: string | undefined }[]) =>
      keys.some((k) => (k.alg === undefined || k.alg === alg) && verifySignature(jwt, k.key, alg));
    const cached = await this.#keys.candidates(kid, false);
    if (tryKeys(cached)) return true;
    // Fetch again only when the cache cannot know the key: an unknown kid, or no kid at all.
    if (kid !== undefined && cached.length > 0) return false;
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
      const v = c[rule.claim];
      if (typeof v !== 'string') throw new OidcError(`oidc: parse claim ${rule.claim}: json: cannot unmarshal ${goJson(v)} into Go value of type string`);
      if (v !== rule.requiredValue) throw new OidcError(`oidc: required claim ${rule.claim} value does not match. Got = ${v}, want = ${rule.requiredValue}`);
    }
    this.#checkRules(this.#m.claimValidation, input, 'oidc: error evaluating claim validation expression');
    if (this.#m.userValidation.length) {
      const u = celInput({ username: user.name, uid: user.uid ?? '', groups: user.groups, extra: user.extra ?? {} });
      this.#checkRules(this.#m.userValidation, u, 'oidc: error evaluating user info validation rule');
    }
    return user;
  }

  #checkRules(rules: Mapper['claimValidation'], input: unknown, what: string): void {
    for (const { expr, message } of rules) {
      const v = this.#eval(expr, input, what);
      if (typeof v !== 'boolean') throw new OidcError(`${what}: validation expression must return a boolean`);
      if (!v) throw new OidcError(`${what}: validation expression '${expr.expression}' failed: ${message}`);
    }
  }

  #eval(expr: CompiledExpression, input: unknown, what: string) {
    try {
      return evaluate(expr, input);
    } catch (err) {
      if (err instanceof CelEvaluationError) throw new OidcError(`${what}: ${err.message}`);
      throw err;
    }
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
    const v = c[claim];
    if (!has(c, claim)) throw new OidcError(`oidc: parse username claims ${JSON.stringify(claim)}: claim not present`);
    if (typeof v !== 'string') throw new OidcError(`oidc: parse username claims ${JSON.stringify(claim)}: json: cannot unmarshal ${goJson(v)} into Go value of type string`);
    if (claim === 'email' && has(c, 'email_verified')) {
      const verified = c['email_verified'];
      if (typeof verified !== 'boolean') throw new OidcError(`oidc: parse 'email_verified' claim: json: cannot unmarshal ${goJson(verified)} into Go value of type bool`);
      if (!verified) throw new OidcError('oidc: email not verified');
    }
    const name = prefix ? prefix + v : v;
    // Choice: upstream lets an empty username through; a user without a name is refused here.
    if (name === '') throw new OidcError(`oidc: parse username claims ${JSON.stringify(claim)}: empty username is not allowed`);
    return name;
  }

  #groups(c: Claims, input: unknown): string[] {
    const { claim, prefix } = this.config.claimMappings.groups;
    if (claim && has(c, claim)) {
      const v = c[claim];
      let groups: string[];
      if (v === null) groups = [];
      else if (typeof v === 'string') groups = [v];
      else if (Array.isArray(v) && v.every((g) => typeof g === 'string')) groups = [...(v as string[])];
      else throw new OidcError(`oidc: parse groups claim ${JSON.stringify(claim)}: json: cannot unmarshal ${goJson(v)} into Go value of type string`);
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
      const v = c[claim];
      if (!has(c, claim)) throw new OidcError(`oidc: parse uid claim ${JSON.stringify(claim)}: claim not present`);
      if (typeof v !== 'string') throw new OidcError(`oidc: parse uid claim ${JSON.stringify(claim)}: json: cannot unmarshal ${goJson(v)} into Go value of type string`);
      return v;
    }
    if (!this.#m.uid) return '';
    const what = 'oidc: error evaluating uid claim expression';
    const v = this.#eval(this.#m.uid, input, what);
    if (typeof v !== 'string') throw new OidcError(`${what}: uid claim expression must return a string`);
    return v;
  }

  #extra(input: unknown): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const { key, expr } of this.#m.extra) {
      let values: string[];
      try {
        values = celStringList(evaluate(expr, input));
      } catch (err) {
        if (err instanceof CelEvaluationError) throw new OidcError(`oidc: error evaluating extra claim expression: ${expr.expression}: ${err.message}`);
        throw err;
      }
      if (values.length) out[key] = values;
    }
    return out;
  }
}
