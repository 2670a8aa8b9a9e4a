// The claims of a bound service-account token, as upstream's pkg/serviceaccount/claims.go writes
// and reads them: sub `system:serviceaccount:<ns>:<name>`, aud, iat = nbf = now, exp, a random
// jti, and the private `platform` claim (upstream's `kubernetes.io`) naming the namespace, the
// account and the object (Secret or Node) the token is bound to.
import { randomUUID } from 'node:crypto';
import type { UserInfo } from '../../core/authn/user.js';
import { JwtError, numericDateMs, type DecodedJwt } from '../../core/authn/jwt.js';

export const PRIVATE_CLAIM = 'platform';
export const SA_USER_PREFIX = 'system:serviceaccount:';
export const SA_GROUP = 'system:serviceaccounts';
export const CREDENTIAL_ID_KEY = 'authentication.platform/credential-id';
/** Upstream's authentication.kubernetes.io/node-name and node-uid user extras. */
export const NODE_NAME_KEY = 'authentication.platform/node-name';
export const NODE_UID_KEY = 'authentication.platform/node-uid';
export const POD_NAME_KEY = 'authentication.platform/pod-name';
export const POD_UID_KEY = 'authentication.platform/pod-uid';
/** go-jose's jwt.DefaultLeeway, which upstream's claim validation uses. */
export const LEEWAY_MS = 60_000;

export interface Ref { name: string; uid: string }

export interface BoundClaims {
  namespace: string;
  serviceaccount: Ref;
  secret?: Ref;
  node?: Ref;
  /** Read, never written: plat issues no Pod-bound tokens, but one signed with its key is checked. */
  pod?: Ref;
}

export const serviceAccountUsername = (namespace: string, name: string) => `${SA_USER_PREFIX}${namespace}:${name}`;

export function makeClaims(p: {
  issuer: string; audiences: readonly string[]; now: Date; expirationSeconds: number; bound: BoundClaims;
}): Record<string, unknown> {
  const iat = Math.floor(p.now.getTime() / 1000);
  return {
    aud: [...p.audiences],
    exp: iat + p.expirationSeconds,
    iat,
    iss: p.issuer,
    jti: randomUUID(),
    [PRIVATE_CLAIM]: {
      namespace: p.bound.namespace,
      serviceaccount: p.bound.serviceaccount,
      ...(p.bound.secret ? { secret: p.bound.secret } : {}),
      ...(p.bound.node ? { node: p.bound.node } : {}),
    },
    nbf: iat,
    sub: serviceAccountUsername(p.bound.namespace, p.bound.serviceaccount.name),
  };
}

/** go-jose v2's NumericDate: the JSON number converted to whole seconds (Go's int64(f) truncates). */
function numericDateSeconds(p: DecodedJwt['payload'], claim: string): number | undefined {
  // A JSON null leaves Go's *NumericDate nil: the claim is absent.
  if (p[claim] === null || numericDateMs(p, claim) === undefined) return undefined;
  return Math.trunc(p[claim] as number) * 1000;
}

function ref(v: unknown): Ref | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const { name, uid } = v as Record<string, unknown>;
  return typeof name === 'string' && name && typeof uid === 'string' && uid ? { name, uid } : undefined;
}

/**
 * The time rules (exp, nbf, iat with a minute's leeway) and the shape of the private claim.
 * Throws JwtError with upstream's words.
 */
export function readClaims(jwt: DecodedJwt, now: number): BoundClaims & { jti?: string } {
  const p = jwt.payload;
  const exp = numericDateSeconds(p, 'exp');
  const nbf = numericDateSeconds(p, 'nbf');
  const iat = numericDateSeconds(p, 'iat');
  // go-jose v2's Claims.ValidateWithLeeway: nbf, then exp, then iat, each only when the token has
  // it; the first that fails is the one reported, so a token both expired and not yet valid is
  // "not valid yet".
  if (nbf !== undefined && now + LEEWAY_MS < nbf) throw new JwtError('service account token is not valid yet');
  if (exp !== undefined && now - LEEWAY_MS > exp) throw new JwtError('service account token has expired');
  if (iat !== undefined && now + LEEWAY_MS < iat) throw new JwtError('service account token is issued in the future');
  const priv = p[PRIVATE_CLAIM];
  const ns = typeof priv === 'object' && priv !== null ? (priv as Record<string, unknown>)['namespace'] : undefined;
  const sa = typeof priv === 'object' && priv !== null ? ref((priv as Record<string, unknown>)['serviceaccount']) : undefined;
  if (typeof ns !== 'string' || !ns || !sa) throw new JwtError('service account token claims are incomplete: namespace and serviceaccount are required');
  if (p['sub'] !== serviceAccountUsername(ns, sa.name)) throw new JwtError('service account token subject does not match its serviceaccount claim');
  const bound: Partial<Record<'secret' | 'node' | 'pod', Ref>> = {};
  for (const k of ['secret', 'node', 'pod'] as const) {
    const claim = (priv as Record<string, unknown>)[k];
    if (claim === undefined) continue;
    const r = ref(claim);
    if (!r) throw new JwtError(`service account token ${k} claim is incomplete`);
    bound[k] = r;
  }
  const jti = typeof p['jti'] === 'string' && p['jti'] ? p['jti'] : undefined;
  return { namespace: ns, serviceaccount: sa, ...bound, ...(jti ? { jti } : {}) };
}

/**
 * The user a validated token stands for (upstream's ServiceAccountInfo.UserInfo, with
 * ServiceAccountTokenPodNodeInfo on as in 1.32: a Pod-bound token's node claim is reported too).
 */
export function serviceAccountUser(c: BoundClaims & { jti?: string }): UserInfo {
  const extra: Record<string, string[]> = {};
  if (c.pod) { extra[POD_NAME_KEY] = [c.pod.name]; extra[POD_UID_KEY] = [c.pod.uid]; }
  if (c.jti) extra[CREDENTIAL_ID_KEY] = [`JTI=${c.jti}`];
  if (c.node) { extra[NODE_NAME_KEY] = [c.node.name]; extra[NODE_UID_KEY] = [c.node.uid]; }
  return {
    name: serviceAccountUsername(c.namespace, c.serviceaccount.name),
    uid: c.serviceaccount.uid,
    groups: [SA_GROUP, `${SA_GROUP}:${c.namespace}`],
    ...(Object.keys(extra).length ? { extra } : {}),
  };
}
