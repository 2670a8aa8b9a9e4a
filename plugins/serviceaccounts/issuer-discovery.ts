// Service-account issuer discovery (upstream's pkg/serviceaccount/openidmetadata.go): the OIDC
// discovery document at /.well-known/openid-configuration and the key set at /openid/v1/jwks, so
// that relying parties outside the cluster can verify service-account tokens. Rendered once at
// start-up; served only when the issuer is an https URL without query or fragment.
import type { KeyObject } from 'node:crypto';
import { goJsonMarshal } from '../../core/api/go-json-marshal.js';
import { algorithmForKey, publicJwk } from '../../core/authn/jwt.js';

export const DISCOVERY_PATH = '/.well-known/openid-configuration';
export const JWKS_PATH = '/openid/v1/jwks';
const CACHE_CONTROL = 'public, max-age=3600';

export interface IssuerDiscovery {
  readonly configuration: string;
  readonly jwks: string;
}

/** Why discovery cannot be served for this issuer, or undefined when it can. */
export function issuerDiscoveryProblem(issuer: string): string | undefined {
  let u: URL;
  try { u = new URL(issuer); } catch { return `issuer was not a valid URL: ${issuer}`; }
  if (u.protocol !== 'https:') return `issuer URL must use https scheme, got: ${issuer}`;
  if (u.search) return `issuer URL may not include a query, got: ${issuer}`;
  if (u.hash) return `issuer URL may not include a fragment, got: ${issuer}`;
  return undefined;
}

export function renderIssuerDiscovery(p: { issuer: string; jwksUri: string; keys: readonly KeyObject[] }): IssuerDiscovery {
  const jwks = p.keys.map((k) => publicJwk(k));
  // One entry per distinct key: the same key may come from several files.
  const unique = [...new Map(jwks.map((j) => [j['kid'] as string, j])).values()];
  const algs = [...new Set(p.keys.map((k) => algorithmForKey(k)))].sort();
  return {
    // openidmetadata.go's json.Marshal: HTML-safe escapes (an issuer path may hold '&'), no newline.
    configuration: goJsonMarshal({
      issuer: p.issuer,
      jwks_uri: p.jwksUri,
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: algs,
    }),
    jwks: goJsonMarshal({ keys: unique }),
  };
}

export const discoveryHeaders = { 'Cache-Control': CACHE_CONTROL };
export const JWKS_CONTENT_TYPE = 'application/jwk-set+json';
