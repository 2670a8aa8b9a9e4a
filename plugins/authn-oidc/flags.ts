// The --oidc-* flags (names, defaults and help as the spec's catalogue lists them) and the
// legacy-flag equivalence of spec 01: the flags become one JWTAuthenticator, exactly as upstream's
// ToAuthenticationConfig builds it, so flags and file share one authenticator type.
import { readFileSync } from 'node:fs';
import { JOSE_ALGORITHMS } from '../../core/authn/jwt.js';
import { emptyJWTAuthenticator, type JWTAuthenticator } from '../../core/authn/authentication-config/index.js';
import type { FlagSet, FlagSpec } from '../../core/flags/types.js';

const SECTION = 'Authentication options';

export const OIDC_ISSUER_URL_FLAG = 'oidc-issuer-url';
export const OIDC_CLIENT_ID_FLAG = 'oidc-client-id';
export const OIDC_CA_FILE_FLAG = 'oidc-ca-file';
export const OIDC_USERNAME_CLAIM_FLAG = 'oidc-username-claim';
export const OIDC_USERNAME_PREFIX_FLAG = 'oidc-username-prefix';
export const OIDC_GROUPS_CLAIM_FLAG = 'oidc-groups-claim';
export const OIDC_GROUPS_PREFIX_FLAG = 'oidc-groups-prefix';
export const OIDC_REQUIRED_CLAIM_FLAG = 'oidc-required-claim';
export const OIDC_SIGNING_ALGS_FLAG = 'oidc-signing-algs';

export const OIDC_FLAGS: readonly Omit<FlagSpec, 'owner'>[] = [
  { name: OIDC_ISSUER_URL_FLAG, type: 'string', section: SECTION, help: 'Issuer URL, HTTPS only; used to verify the identity JWT.' },
  { name: OIDC_CLIENT_ID_FLAG, type: 'string', section: SECTION, help: 'Client ID; must be set when the issuer URL is set.' },
  { name: OIDC_CA_FILE_FLAG, type: 'string', section: SECTION, help: "CA file for the issuer's certificate; otherwise the host's root set." },
  { name: OIDC_USERNAME_CLAIM_FLAG, type: 'string', default: 'sub', section: SECTION, help: 'Claim used as user name (claims other than sub are not guaranteed unique or immutable; experimental).' },
  { name: OIDC_USERNAME_PREFIX_FLAG, type: 'string', section: SECTION, help: 'Prefix for usernames; if absent, username claims other than `email` get the issuer URL as prefix; value `-` means no prefix.' },
  { name: OIDC_GROUPS_CLAIM_FLAG, type: 'string', section: SECTION, help: 'Custom claim for groups; string or array of strings (experimental).' },
  { name: OIDC_GROUPS_PREFIX_FLAG, type: 'string', section: SECTION, help: 'Prefix for all groups.' },
  { name: OIDC_REQUIRED_CLAIM_FLAG, type: 'map', section: SECTION, help: 'Claims that must be present in the ID token with the given value.' },
  { name: OIDC_SIGNING_ALGS_FLAG, type: 'strings', default: ['RS256'], enum: JOSE_ALGORITHMS, section: SECTION, help: 'Allowed JOSE algorithms: RS256, RS384, RS512, ES256, ES384, ES512, PS256, PS384, PS512 (RFC 7518 section 3.1).' },
];

/** Upstream's OIDC.FlagsSet: any --oidc-* flag given, whatever its value. */
export const oidcFlagsSet = (flags: FlagSet): boolean => OIDC_FLAGS.some((f) => flags.isSet(f.name));

export class OidcFlagError extends Error {
  override readonly name = 'OidcFlagError';
}

/** The JWTAuthenticator the --oidc-* flags stand for (issuer URL and client ID both set). */
export function jwtAuthenticatorFromFlags(flags: FlagSet): JWTAuthenticator {
  const issuerUrl = flags.get<string>(OIDC_ISSUER_URL_FLAG);
  const clientId = flags.get<string>(OIDC_CLIENT_ID_FLAG);
  const usernameClaim = flags.get<string>(OIDC_USERNAME_CLAIM_FLAG);
  const usernamePrefixFlag = flags.get<string>(OIDC_USERNAME_PREFIX_FLAG);
  const groupsClaim = flags.get<string>(OIDC_GROUPS_CLAIM_FLAG);
  const caFile = flags.get<string>(OIDC_CA_FILE_FLAG);
  const required = flags.get<Record<string, string>>(OIDC_REQUIRED_CLAIM_FLAG) ?? {};

  // Legacy behaviour: without a prefix, claims other than email are prefixed with the issuer URL
  // (kubernetes#31380); `-` means no prefix at all.
  let usernamePrefix = usernamePrefixFlag;
  if (usernamePrefixFlag === '' && usernameClaim !== 'email') usernamePrefix = `${issuerUrl}#`;
  if (usernamePrefixFlag === '-') usernamePrefix = '';

  let certificateAuthority = '';
  if (caFile) {
    try {
      certificateAuthority = readFileSync(caFile, 'utf8');
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      throw new OidcFlagError(`--${OIDC_CA_FILE_FLAG}: open ${caFile}: ${e.code === 'ENOENT' ? 'no such file or directory' : e.message}`);
    }
  }
  const base = emptyJWTAuthenticator(issuerUrl, [clientId]);
  return {
    ...base,
    issuer: { ...base.issuer, certificateAuthority },
    claimMappings: {
      ...base.claimMappings,
      username: { claim: usernameClaim, prefix: usernamePrefix, expression: '' },
      ...(groupsClaim ? { groups: { claim: groupsClaim, prefix: flags.get<string>(OIDC_GROUPS_PREFIX_FLAG), expression: '' } } : {}),
    },
    claimValidationRules: Object.entries(required).map(([claim, requiredValue]) => ({ claim, requiredValue, expression: '', message: '' })),
  };
}
