// The service-account flags of spec 01, with its defaults and words.
import type { FlagSpec } from '../../core/flags/types.js';

const SECTION = 'Authentication options';

export const FLAG = {
  issuer: 'service-account-issuer',
  jwksUri: 'service-account-jwks-uri',
  keyFile: 'service-account-key-file',
  signingKeyFile: 'service-account-signing-key-file',
  lookup: 'service-account-lookup',
  maxExpiration: 'service-account-max-token-expiration',
  extendExpiration: 'service-account-extend-token-expiration',
  apiAudiences: 'api-audiences',
} as const;

export const serviceAccountFlags: readonly Omit<FlagSpec, 'owner'>[] = [
  {
    name: FLAG.apiAudiences, type: 'strings', section: SECTION,
    help: 'API identifiers; service account tokens must be bound to at least one. Defaults to the --service-account-issuer URLs when they are set and this is not.',
  },
  {
    name: FLAG.issuer, type: 'stringArray', section: SECTION,
    help: 'Issuer identifier asserted in the `iss` claim; first value issues tokens, all are accepted. Should be an https URL able to serve `{issuer}/.well-known/openid-configuration`; if not a valid URI the issuer discovery feature stays disabled.',
  },
  {
    name: FLAG.jwksUri, type: 'string', section: SECTION,
    help: 'Overrides the key-set URI in the discovery document served at `/.well-known/openid-configuration`.',
  },
  {
    name: FLAG.keyFile, type: 'stringArray', section: SECTION,
    help: 'PEM x509 RSA or ECDSA private or public keys verifying service account tokens; default --tls-private-key-file; required when --service-account-signing-key-file is given.',
  },
  { name: FLAG.signingKeyFile, type: 'string', section: SECTION, help: 'Current private key of the token issuer.' },
  { name: FLAG.lookup, type: 'bool', default: true, section: SECTION, help: 'Validate that service account tokens exist in the store.' },
  { name: FLAG.maxExpiration, type: 'duration', section: SECTION, help: 'Maximum validity of issued tokens; longer requests get this value.' },
  {
    name: FLAG.extendExpiration, type: 'bool', default: true, section: SECTION,
    // Only tokens bound to a Pod (admission-injected projected tokens) are ever extended, and plat
    // serves no Pods, so no token plat issues is extended; the flag is accepted for compatibility.
    help: 'Extend admission-injected projected tokens up to 1 year, ignoring the max expiration.',
  },
];
