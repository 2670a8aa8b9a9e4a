// AuthenticationConfiguration (apiserver.platform/v1beta1), the --authentication-config file, as
// upstream's apiserver.config.k8s.io types define it. Optional strings are '' when absent, as the
// Go zero values are, except `prefix`, whose absence and emptiness mean different things.

export const AUTHENTICATION_CONFIGURATION_GROUP = 'apiserver.platform';
export const AUTHENTICATION_CONFIGURATION_API_VERSION = `${AUTHENTICATION_CONFIGURATION_GROUP}/v1beta1`;
export const AUTHENTICATION_CONFIGURATION_KIND = 'AuthenticationConfiguration';

export interface AuthenticationConfiguration {
  readonly jwt: readonly JWTAuthenticator[];
  /** Present only when the file has an `anonymous` section: it then replaces --anonymous-auth. */
  readonly anonymous?: AnonymousAuthConfig;
  /** Whether the file had a `jwt` key at all (the JWT authenticators are then the file's). */
  readonly hasJwt: boolean;
}

export interface AnonymousAuthConfig {
  readonly enabled: boolean;
  readonly conditions: readonly AnonymousAuthCondition[];
}

export interface AnonymousAuthCondition {
  readonly path: string;
}

export interface JWTAuthenticator {
  readonly issuer: Issuer;
  readonly claimValidationRules: readonly ClaimValidationRule[];
  readonly claimMappings: ClaimMappings;
  readonly userValidationRules: readonly UserValidationRule[];
}

export type AudienceMatchPolicy = '' | 'MatchAny' | (string & {});

export interface Issuer {
  readonly url: string;
  readonly discoveryURL: string;
  /** PEM text (not a path). */
  readonly certificateAuthority: string;
  readonly audiences: readonly string[];
  readonly audienceMatchPolicy: AudienceMatchPolicy;
  readonly egressSelectorType: string;
}

export interface ClaimValidationRule {
  readonly claim: string;
  readonly requiredValue: string;
  readonly expression: string;
  readonly message: string;
}

export interface ClaimMappings {
  readonly username: PrefixedClaimOrExpression;
  readonly groups: PrefixedClaimOrExpression;
  readonly uid: ClaimOrExpression;
  readonly extra: readonly ExtraMapping[];
}

export interface PrefixedClaimOrExpression {
  readonly claim: string;
  /** undefined: not given (required with claim); '': given and empty. */
  readonly prefix?: string | undefined;
  readonly expression: string;
}

export interface ClaimOrExpression {
  readonly claim: string;
  readonly expression: string;
}

export interface ExtraMapping {
  readonly key: string;
  readonly valueExpression: string;
}

export interface UserValidationRule {
  readonly expression: string;
  readonly message: string;
}

export const emptyJWTAuthenticator = (url: string, audiences: readonly string[]): JWTAuthenticator => ({
  issuer: { url, discoveryURL: '', certificateAuthority: '', audiences, audienceMatchPolicy: '', egressSelectorType: '' },
  claimValidationRules: [],
  claimMappings: {
    username: { claim: '', expression: '' },
    groups: { claim: '', expression: '' },
    uid: { claim: '', expression: '' },
    extra: [],
  },
  userValidationRules: [],
});
