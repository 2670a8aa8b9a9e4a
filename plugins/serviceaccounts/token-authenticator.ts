// Service-account token authentication, as upstream's jwtTokenAuthenticator with its bound-token
// validator: a bearer JWT whose (unverified) `iss` is one of --service-account-issuer belongs here,
// anything else is none of our business. A token that belongs here is then held to everything:
// signature by one of the --service-account-key-file keys (RS*/ES* only), issuer, audience
// against the requested (or API) audiences, time, and, with --service-account-lookup, that the
// account (and the Secret it is bound to) still exists with the uid the token names.
import type { KeyObject } from 'node:crypto';
import type { AuthenticationRequest, UserInfo } from '../../core/authn/user.js';
import { bearerToken } from '../../core/authn/bearer.js';
import { audiences as tokenAudiences, decodeJwt, isJoseAlgorithm, JwtError, peekIssuer, verifySignature } from '../../core/authn/jwt.js';
import { hasReason } from '../../core/api/errors.js';
import type { ResourceStore } from '../../core/registry/store.js';
import { readClaims, serviceAccountUser } from './claims.js';

export interface TokenAuthenticatorOptions {
  readonly issuers: readonly string[];
  readonly keys: readonly KeyObject[];
  /** --api-audiences: what a token must be for when the request names no audiences. */
  readonly apiAudiences: readonly string[];
  /** Undefined: no lookup (--service-account-lookup=false). */
  readonly lookup?: { serviceAccounts: () => ResourceStore | undefined; secrets: () => ResourceStore | undefined };
  readonly now?: () => number;
}

const quoteList = (l: readonly string[]) => `[${l.map((a) => JSON.stringify(a)).join(' ')}]`;

export class ServiceAccountTokenAuthenticator {
  readonly #issuers: ReadonlySet<string>;
  readonly #o: TokenAuthenticatorOptions;
  constructor(o: TokenAuthenticatorOptions) {
    this.#o = o;
    this.#issuers = new Set(o.issuers);
  }

  /** undefined with no reject: not a service-account token. */
  async authenticate(req: AuthenticationRequest): Promise<UserInfo | undefined> {
    const token = bearerToken(req.headers);
    if (token === undefined) return undefined;
    const iss = peekIssuer(token);
    if (iss === undefined || !this.#issuers.has(iss)) return undefined;
    try {
      return await this.#validate(token, req.audiences);
    } catch (e) {
      if (e instanceof JwtError) { req.reject(e.message); return undefined; }
      throw e;
    }
  }

  async #validate(token: string, requested: readonly string[] | undefined): Promise<UserInfo> {
    const jwt = decodeJwt(token);
    const alg = jwt.header['alg'];
    if (!isJoseAlgorithm(alg)) throw new JwtError(`unsupported signing algorithm ${JSON.stringify(alg)}`);
    if (!this.#o.keys.some((k) => verifySignature(jwt, k, alg))) throw new JwtError('token signature is not valid for any service account key');
    const iss = jwt.payload['iss'];
    if (typeof iss !== 'string' || !this.#issuers.has(iss)) throw new JwtError(`token issuer ${JSON.stringify(iss)} is invalid`);

    let auds = tokenAudiences(jwt.payload);
    if (auds.length === 0) auds = [...this.#o.apiAudiences];
    const target = requested?.length ? requested : this.#o.apiAudiences;
    if (this.#o.apiAudiences.length && !auds.some((a) => target.includes(a))) {
      throw new JwtError(`token audiences ${quoteList(auds)} is invalid for the target audiences ${quoteList(target)}`);
    }

    const claims = readClaims(jwt, (this.#o.now ?? Date.now)());
    if (this.#o.lookup) {
      const { namespace, serviceaccount: sa, secret } = claims;
      const account = await get(this.#o.lookup.serviceAccounts(), namespace, sa.name, `service account ${namespace}/${sa.name} has been deleted`);
      if (account.uid !== sa.uid) throw new JwtError(`service account UID (${account.uid}) does not match claim (${sa.uid})`);
      if (secret) {
        const s = await get(this.#o.lookup.secrets(), namespace, secret.name, `the secret ${namespace}/${secret.name} has been deleted`);
        if (s.uid !== secret.uid) throw new JwtError(`secret UID (${s.uid}) does not match service account secret ref claim (${secret.uid})`);
      }
    }
    return serviceAccountUser(claims);
  }
}

async function get(store: ResourceStore | undefined, namespace: string, name: string, gone: string): Promise<{ uid: string }> {
  if (!store) throw new JwtError('service account lookup is not available yet');
  try {
    const obj = await store.get(namespace, name);
    if (obj.metadata.deletionTimestamp) throw new JwtError(gone);
    return { uid: obj.metadata.uid ?? '' };
  } catch (e) {
    if (hasReason(e, 'NotFound')) throw new JwtError(gone);
    throw e;
  }
}
