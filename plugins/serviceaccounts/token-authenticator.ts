// Service-account token authentication, as upstream's jwtTokenAuthenticator with its bound-token
// validator: a bearer JWT whose (unverified) `iss` is one of --service-account-issuer belongs here,
// anything else is none of our business. A token that belongs here is then held to everything:
// signature by one of the --service-account-key-file keys (those whose key id is the token's
// `kid`, every key without one), issuer, audience against the requested (or API) audiences,
// time, and that the account (and the Secret, Node or Pod it is
// bound to) still exists with the uid the token names.
import type { KeyObject } from 'node:crypto';
import type { AuthenticationRequest, UserInfo } from '../../core/authn/user.js';
import { goTokenText, requestToken } from '../../core/authn/bearer.js';
import { intersectAudiences } from '../../core/authn/api-audiences.js';
import { rejectToken } from '../../core/authn/token-authentication.js';
import { audiences as tokenAudiences, decodeJwt, isJoseAlgorithm, JwtError, keyId, peekIssuer, verifySignature, type DecodedJwt } from '../../core/authn/jwt.js';
import type { ResourceStore } from '../../core/registry/store.js';
import { LEEWAY_MS, readClaims, serviceAccountUser, type Ref } from './claims.js';
import { AUDIT_LEGACY_TOKEN, type LegacyValidator } from './legacy-validator.js';

export interface TokenAuthenticatorOptions {
  readonly issuers: readonly string[];
  readonly keys: readonly KeyObject[];
  /** --api-audiences: what a token must be for when the request names no audiences. */
  readonly apiAudiences: readonly string[];
  /** Undefined: no lookup (a test's choice; the plugin always looks up, as upstream does for bound tokens). */
  readonly lookup?: Record<'serviceAccounts' | 'secrets' | 'nodes' | 'pods', () => ResourceStore | undefined>;
  readonly now?: () => number;
  /** This authenticator is upstream's legacy one (issuer platform/serviceaccount): its validator. */
  readonly legacy?: LegacyValidator;
}

const quoteList = (l: readonly string[]) => `[${l.map((a) => JSON.stringify(a)).join(' ')}]`;
/** go-jose v2's ErrCryptoFailure (gopkg.in/go-jose/go-jose.v2), whatever made the signature fail. */
export const CRYPTO_FAILURE = 'go-jose/go-jose: error in cryptographic primitive';
const INVALIDATED = 'service account token has been invalidated';

/**
 * The token as go-jose v2's ParseSigned takes it, or undefined where that fails: parts that are not
 * base64url or not JSON objects, and the header fields it reads typed (alg, kid) that are neither a
 * string nor null.
 */
function parseSigned(token: string): DecodedJwt | undefined {
  let jwt: DecodedJwt;
  try {
    jwt = decodeJwt(token);
  } catch (e) {
    if (e instanceof JwtError) return undefined;
    throw e;
  }
  const typed = (v: unknown) => v === undefined || v === null || typeof v === 'string';
  return typed(jwt.header['alg']) && typed(jwt.header['kid']) ? jwt : undefined;
}

export class ServiceAccountTokenAuthenticator {
  readonly #issuers: ReadonlySet<string>;
  readonly #o: TokenAuthenticatorOptions;
  readonly #keyIds: readonly string[];
  constructor(o: TokenAuthenticatorOptions) {
    this.#o = o;
    this.#issuers = new Set(o.issuers);
    this.#keyIds = o.keys.map((k) => keyId(k));
  }

  /** undefined with no reject: not a service-account token. The audiences it is good for go to req.granted. */
  async authenticate(req: AuthenticationRequest): Promise<UserInfo | undefined> {
    const token = requestToken(req);
    if (token === undefined) return undefined;
    const iss = peekIssuer(token);
    if (iss === undefined || !this.#issuers.has(iss)) return undefined;
    const text = goTokenText(req, token);
    const jwt = parseSigned(text);
    // go-jose's ParseSigned refused it: upstream's AuthenticateToken answers (nil, false, nil), so
    // the request is refused as any unrecognised token is, with no reason from this authenticator.
    if (jwt === undefined) return undefined;
    try {
      return await this.#validate(jwt, text, req);
    } catch (e) {
      if (e instanceof JwtError) { rejectToken(req, e.message); return undefined; }
      throw e;
    }
  }

  async #validate(jwt: DecodedJwt, text: string, req: AuthenticationRequest): Promise<UserInfo> {
    const requested = req.audiences;
    const alg = jwt.header['alg'];
    // StaticPublicKeysGetter: the keys of the token's kid, or all of them when it names none.
    const kid = typeof jwt.header['kid'] === 'string' ? jwt.header['kid'] : '';
    const keys = kid ? this.#o.keys.filter((_, i) => this.#keyIds[i] === kid) : this.#o.keys;
    if (keys.length === 0) throw new JwtError('invalid signature, no keys found');
    // Every key's failure is ErrCryptoFailure, and the aggregate of one repeated text is that text.
    if (!isJoseAlgorithm(alg) || !keys.some((k) => verifySignature(jwt, k, alg))) throw new JwtError(CRYPTO_FAILURE);
    const iss = jwt.payload['iss'];
    if (typeof iss !== 'string' || !this.#issuers.has(iss)) throw new JwtError(`token issuer ${JSON.stringify(iss)} is invalid`);

    let auds = tokenAudiences(jwt.payload);
    if (auds.length === 0) {
      // Only legacy tokens have none: they are good for the API server's own audiences.
      req.annotate?.(AUDIT_LEGACY_TOKEN, typeof jwt.payload['sub'] === 'string' ? jwt.payload['sub'] : '');
      auds = [...this.#o.apiAudiences];
    }
    const target = requested?.length ? requested : this.#o.apiAudiences;
    const granted = intersectAudiences(auds, target);
    if (this.#o.apiAudiences.length && granted.length === 0) {
      throw new JwtError(`token audiences ${quoteList(auds)} is invalid for the target audiences ${quoteList(target)}`);
    }

    if (this.#o.legacy) {
      const user = await this.#o.legacy.validate(jwt, text, req);
      req.granted?.(granted);
      return user;
    }
    const now = (this.#o.now ?? Date.now)();
    const claims = readClaims(jwt, now);
    if (this.#o.lookup) await this.#lookup(this.#o.lookup, claims, now);
    req.granted?.(granted);
    return serviceAccountUser(claims);
  }

  /** Upstream's validator: each bound object still there, same uid, not deleted over a minute ago. */
  async #lookup(stores: NonNullable<TokenAuthenticatorOptions['lookup']>, claims: ReturnType<typeof readClaims>, now: number): Promise<void> {
    const { namespace, serviceaccount: sa, secret, pod, node } = claims;
    const deleted = (o: { metadata: { deletionTimestamp?: string | null } }) =>
      !!o.metadata.deletionTimestamp && Date.parse(o.metadata.deletionTimestamp) < now - LEEWAY_MS;
    const store = stores.serviceAccounts();
    if (!store) throw new JwtError('service account lookup is not available yet');
    // The getter's own error (`serviceaccounts "x" not found`) is what upstream reports.
    const account = await store.get(namespace, sa.name).catch((e: unknown) => { throw new JwtError((e as Error).message); });
    // uid before deletion, for the account as for the objects below (1.32's validator).
    if (account.metadata.uid !== sa.uid) throw new JwtError(`service account UID (${account.metadata.uid ?? ''}) does not match claim (${sa.uid})`);
    if (deleted(account)) throw new JwtError(`service account ${namespace}/${sa.name} has been deleted`);
    const bound = async (kind: string, get: (() => ResourceStore | undefined), ns: string, ref: Ref) => {
      const obj = await get()?.get(ns, ref.name).catch(() => undefined);
      if (!obj) throw new JwtError(INVALIDATED);
      if (obj.metadata.uid !== ref.uid) throw new JwtError(`${kind} UID (${obj.metadata.uid ?? ''}) does not match service account ${kind} ref claim (${ref.uid})`);
      if (deleted(obj)) throw new JwtError(INVALIDATED);
    };
    if (secret) await bound('secret', stores.secrets, namespace, secret);
    if (pod) await bound('pod', stores.pods, namespace, pod);
    // A Pod-bound token's node claim is information only (ServiceAccountTokenPodNodeInfo).
    else if (node) await bound('node', stores.nodes, '', node);
  }
}
