// ValidateAuthenticationConfiguration, rule for rule and message for message as upstream's
// k8s.io/apiserver/pkg/apis/apiserver/validation does it, with field paths such as
// `jwt[0].issuer.url`. CEL lives outside core: the caller passes an ExpressionCompiler, as
// upstream passes its CEL compiler, and its verdicts land at the same places in the error list.
import { X509Certificate } from 'node:crypto';
import { dns1123SubdomainErrors, regexError } from '../../api/selectors/label-syntax.js';
import { FieldPath, aggregateFieldErrors, fieldError, type FieldError } from '../../api/field-errors.js';
import type { AuthenticationConfiguration, ClaimMappings, ClaimValidationRule, Issuer, JWTAuthenticator, PrefixedClaimOrExpression, UserValidationRule } from './types.js';

/** What an expression is for: claim expressions see `claims`, user validation rules see `user`. */
export type ExpressionKind = 'claimValidation' | 'claimMapping' | 'extraMapping' | 'userValidation';

export type CompileResult =
  | { readonly ok: true; readonly usesEmailClaim: boolean; readonly usesEmailVerifiedClaim: boolean }
  | { readonly ok: false; readonly type: 'Required' | 'Invalid' | 'Internal'; readonly detail: string };

export interface ExpressionCompiler {
  compile(expression: string, kind: ExpressionKind): CompileResult;
}

/** Accepts every expression: for callers that need the structure of the file, not its CEL. */
export const acceptingCompiler: ExpressionCompiler = {
  compile: () => ({ ok: true, usesEmailClaim: false, usesEmailVerifiedClaim: false }),
};

export const MAX_JWT_AUTHENTICATORS = 64;
const AT_LEAST_ONE_REQUIRED = (p: FieldPath) => `at least one ${p.text} is required`;
const EGRESS_SELECTORS = ['controlplane', 'cluster'];
/** Extra keys under these domains are the server's own (upstream: k8s.io and kubernetes.io). */
export const RESERVED_EXTRA_DOMAINS = ['platform', 'k8s.io', 'kubernetes.io'];
const HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const HTTP_PATH = new RegExp(`^${HTTP_PATH_FMT}$`);

const internal = (field: string, detail: string): FieldError => ({ type: 'InternalError', field, message: `Internal error: ${detail}` });
const tooMany = (field: string, actual: number, max: number): FieldError => ({
  type: 'FieldValueTooMany', field, message: `Too many: ${actual}: must have at most ${max} items`,
});
const invalidJson = (field: string, value: unknown, detail: string): FieldError => ({
  type: 'FieldValueInvalid', field, message: `Invalid value: ${JSON.stringify(value)}: ${detail}`,
});

interface State { usesEmailClaim: boolean; usesEmailVerifiedClaim: boolean }

export function validateAuthenticationConfiguration(
  compiler: ExpressionCompiler, c: AuthenticationConfiguration, disallowedIssuers: readonly string[] = [],
): FieldError[] {
  const root = FieldPath.root('jwt');
  const errs: FieldError[] = [];
  if (c.jwt.length > MAX_JWT_AUTHENTICATORS) return [tooMany(root.text, c.jwt.length, MAX_JWT_AUTHENTICATORS)];
  const seenIssuers = new Set<string>();
  const seenDiscoveryURLs = new Set<string>();
  c.jwt.forEach((a, i) => {
    const p = root.index(i);
    errs.push(...validateJWTAuthenticator(compiler, a, p, new Set(disallowedIssuers)));
    if (seenIssuers.has(a.issuer.url)) errs.push(fieldError.duplicate(p.child('issuer').child('url').text, a.issuer.url));
    seenIssuers.add(a.issuer.url);
    if (a.issuer.discoveryURL.length > 0) {
      if (seenDiscoveryURLs.has(a.issuer.discoveryURL)) errs.push(fieldError.duplicate(p.child('issuer').child('discoveryURL').text, a.issuer.discoveryURL));
      seenDiscoveryURLs.add(a.issuer.discoveryURL);
    }
  });
  if (c.anonymous && !c.anonymous.enabled && c.anonymous.conditions.length > 0) {
    errs.push(invalidJson('anonymous.conditions', c.anonymous.conditions, 'enabled should be set to true when conditions are defined'));
  }
  return errs;
}

/** One authenticator alone (upstream CompileAndValidateJWTAuthenticator), paths relative to it. */
export function validateJWTAuthenticator(compiler: ExpressionCompiler, a: JWTAuthenticator, p: FieldPath, disallowed: ReadonlySet<string>): FieldError[] {
  const state: State = { usesEmailClaim: false, usesEmailVerifiedClaim: false };
  return [
    ...validateIssuer(a.issuer, disallowed, p.child('issuer')),
    ...validateClaimValidationRules(compiler, state, a.claimValidationRules, p.child('claimValidationRules')),
    ...validateClaimMappings(compiler, state, a.claimMappings, p.child('claimMappings')),
    ...validateUserValidationRules(compiler, a.userValidationRules, p.child('userValidationRules')),
  ];
}

function validateIssuer(issuer: Issuer, disallowed: ReadonlySet<string>, p: FieldPath): FieldError[] {
  return [
    ...(issuer.url.length === 0 ? [fieldError.required(p.child('url').text, '')] : validateURL(issuer.url, disallowed, p.child('url'))),
    ...validateDiscoveryURL(issuer.url, issuer.discoveryURL, p.child('discoveryURL')),
    ...validateAudiences(issuer.audiences, issuer.audienceMatchPolicy, p.child('audiences'), p.child('audienceMatchPolicy')),
    ...validateCertificateAuthority(issuer.certificateAuthority, p.child('certificateAuthority')),
    ...validateEgressSelector(issuer.egressSelectorType, p.child('egressSelectorType')),
  ];
}

function validateDiscoveryURL(url: string, discoveryURL: string, p: FieldPath): FieldError[] {
  if (discoveryURL.length === 0) return [];
  const errs: FieldError[] = [];
  const trim = (u: string) => u.replace(/\/+$/, '');
  if (url.length > 0 && trim(url) === trim(discoveryURL)) errs.push(fieldError.invalid(p.text, discoveryURL, 'discoveryURL must be different from URL'));
  errs.push(...validateURL(discoveryURL, new Set(), p));
  return errs;
}

/** The parts of Go's net/url.Parse the issuer rules look at. */
export function goParseURL(raw: string): { scheme: string; hasUser: boolean; rawQuery: string; fragment: string } {
  if (/[\x00-\x1f\x7f]/.test(raw)) throw new Error(`parse ${JSON.stringify(raw)}: net/url: invalid control character in URL`);
  const hash = raw.indexOf('#');
  const fragment = hash === -1 ? '' : raw.slice(hash + 1);
  let rest = hash === -1 ? raw : raw.slice(0, hash);
  let scheme = '';
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(rest);
  if (rest.startsWith(':')) throw new Error(`parse ${JSON.stringify(raw)}: missing protocol scheme`);
  if (m) { scheme = m[1]!.toLowerCase(); rest = rest.slice(m[0].length); }
  const q = rest.indexOf('?');
  const rawQuery = q === -1 ? '' : rest.slice(q + 1);
  if (q !== -1) rest = rest.slice(0, q);
  let hasUser = false;
  if (rest.startsWith('//')) {
    const end = rest.indexOf('/', 2);
    const authority = end === -1 ? rest.slice(2) : rest.slice(2, end);
    hasUser = authority.includes('@');
  }
  return { scheme, hasUser, rawQuery, fragment };
}

function validateURL(url: string, disallowed: ReadonlySet<string>, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (disallowed.has(url)) {
    errs.push(fieldError.invalid(p.text, url, `URL must not overlap with disallowed issuers: [${[...disallowed].sort().join(' ')}]`));
  }
  let u;
  try {
    u = goParseURL(url);
  } catch (err) {
    errs.push(fieldError.invalid(p.text, url, (err as Error).message));
    return errs;
  }
  if (u.scheme !== 'https') errs.push(fieldError.invalid(p.text, url, 'URL scheme must be https'));
  if (u.hasUser) errs.push(fieldError.invalid(p.text, url, 'URL must not contain a username or password'));
  if (u.rawQuery.length > 0) errs.push(fieldError.invalid(p.text, url, 'URL must not contain a query'));
  if (u.fragment.length > 0) errs.push(fieldError.invalid(p.text, url, 'URL must not contain a fragment'));
  return errs;
}

function validateAudiences(audiences: readonly string[], policy: string, p: FieldPath, policyPath: FieldPath): FieldError[] {
  if (audiences.length === 0) return [fieldError.required(p.text, AT_LEAST_ONE_REQUIRED(p))];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  audiences.forEach((aud, i) => {
    if (aud.length === 0) errs.push(fieldError.required(p.index(i).text, ''));
    if (seen.has(aud)) errs.push(fieldError.duplicate(p.index(i).text, aud));
    seen.add(aud);
  });
  if (audiences.length > 1 && policy !== 'MatchAny') {
    errs.push(fieldError.invalid(policyPath.text, policy, 'audienceMatchPolicy must be MatchAny for multiple audiences'));
  }
  if (audiences.length === 1 && policy.length > 0 && policy !== 'MatchAny') {
    errs.push(fieldError.invalid(policyPath.text, policy, 'audienceMatchPolicy must be empty or MatchAny for single audience'));
  }
  return errs;
}

/** The certificates of a PEM bundle; throws with client-go's message when there are none. */
export function parseCertificatePool(pem: string): X509Certificate[] {
  const certs: X509Certificate[] = [];
  for (const m of pem.matchAll(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g)) {
    try { certs.push(new X509Certificate(m[0])); } catch { /* skipped, as x509.CertPool.AppendCertsFromPEM does */ }
  }
  if (certs.length === 0) throw new Error('data does not contain any valid RSA or ECDSA certificates');
  return certs;
}

function validateCertificateAuthority(ca: string, p: FieldPath): FieldError[] {
  if (ca.length === 0) return [];
  try {
    parseCertificatePool(ca);
    return [];
  } catch (err) {
    return [fieldError.invalid(p.text, '<omitted>', (err as Error).message)];
  }
}

function validateEgressSelector(type: string, p: FieldPath): FieldError[] {
  if (type.length === 0) return [];
  if (!EGRESS_SELECTORS.includes(type)) return [fieldError.invalid(p.text, type, 'egress selector must be either controlplane or cluster')];
  return [];
}

function compileError(p: FieldPath, expression: string, r: Extract<CompileResult, { ok: false }>): FieldError {
  if (r.type === 'Required') return fieldError.required(p.text, r.detail);
  if (r.type === 'Invalid') return fieldError.invalid(p.text, expression, r.detail);
  return internal(p.text, r.detail);
}

function validateClaimValidationRules(compiler: ExpressionCompiler, state: State, rules: readonly ClaimValidationRule[], p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seenClaims = new Set<string>();
  const seenExpressions = new Set<string>();
  rules.forEach((rule, i) => {
    const rp = p.index(i);
    if (rule.claim.length > 0 && rule.expression.length > 0) {
      errs.push(fieldError.invalid(rp.text, rule.claim, "claim and expression can't both be set"));
    } else if (rule.claim.length === 0 && rule.expression.length === 0) {
      errs.push(fieldError.required(rp.text, 'claim or expression is required'));
    } else if (rule.claim.length > 0) {
      if (rule.message.length > 0) errs.push(fieldError.invalid(rp.child('message').text, rule.message, 'may not be specified when claim is set'));
      if (seenClaims.has(rule.claim)) errs.push(fieldError.duplicate(rp.child('claim').text, rule.claim));
      seenClaims.add(rule.claim);
    } else {
      if (rule.requiredValue.length > 0) errs.push(fieldError.invalid(rp.child('requiredValue').text, rule.requiredValue, 'may not be specified when expression is set'));
      if (seenExpressions.has(rule.expression)) {
        errs.push(fieldError.duplicate(rp.child('expression').text, rule.expression));
        return;
      }
      seenExpressions.add(rule.expression);
      const r = compiler.compile(rule.expression, 'claimValidation');
      if (!r.ok) errs.push(compileError(rp.child('expression'), rule.expression, r));
      else state.usesEmailVerifiedClaim ||= r.usesEmailVerifiedClaim;
    }
  });
  return errs;
}

function validatePrefixClaimOrExpression(
  compiler: ExpressionCompiler, m: PrefixedClaimOrExpression, p: FieldPath, required: boolean,
): { errs: FieldError[]; compiled?: Extract<CompileResult, { ok: true }> } {
  const errs: FieldError[] = [];
  if (m.expression.length > 0 && m.claim.length > 0) {
    errs.push(fieldError.invalid(p.text, '', "claim and expression can't both be set"));
  } else if (m.expression.length === 0 && m.claim.length === 0 && required) {
    errs.push(fieldError.required(p.text, 'claim or expression is required'));
  } else if (m.expression.length > 0) {
    if (m.prefix !== undefined) errs.push(fieldError.invalid(p.child('prefix').text, m.prefix, 'may not be specified when expression is set'));
    const r = compiler.compile(m.expression, 'claimMapping');
    if (!r.ok) errs.push(compileError(p.child('expression'), m.expression, r));
    else if (errs.length === 0) return { errs, compiled: r };
  } else if (m.claim.length > 0 && m.prefix === undefined) {
    errs.push(fieldError.required(p.child('prefix').text, 'prefix is required when claim is set. It can be set to an empty string to disable prefixing'));
  }
  return { errs };
}

function domainPrefixedPathErrors(p: FieldPath, key: string): FieldError[] {
  if (key.length === 0) return [fieldError.required(p.text, '')];
  const slash = key.indexOf('/');
  const host = slash === -1 ? key : key.slice(0, slash);
  const path = slash === -1 ? '' : key.slice(slash + 1);
  if (slash === -1 || host.length === 0 || path.length === 0) {
    return [fieldError.invalid(p.text, key, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  }
  const errs = dns1123SubdomainErrors(host).map((m) => fieldError.invalid(p.text, host, m));
  if (!HTTP_PATH.test(path)) errs.push(fieldError.invalid(p.text, path, regexError('Invalid path', HTTP_PATH_FMT)));
  return errs;
}

export function isReservedExtraKey(key: string): boolean {
  const slash = key.indexOf('/');
  const domain = slash === -1 ? '' : key.slice(0, slash);
  return RESERVED_EXTRA_DOMAINS.some((d) => domain === d || domain.endsWith(`.${d}`));
}

function validateClaimMappings(compiler: ExpressionCompiler, state: State, m: ClaimMappings, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const username = validatePrefixClaimOrExpression(compiler, m.username, p.child('username'), true);
  errs.push(...username.errs);
  if (username.compiled) {
    state.usesEmailClaim ||= username.compiled.usesEmailClaim;
    state.usesEmailVerifiedClaim ||= username.compiled.usesEmailVerifiedClaim;
  }
  errs.push(...validatePrefixClaimOrExpression(compiler, m.groups, p.child('groups'), false).errs);

  if (m.uid.claim.length > 0 && m.uid.expression.length > 0) {
    errs.push(fieldError.invalid(p.child('uid').text, '', "claim and expression can't both be set"));
  } else if (m.uid.expression.length > 0) {
    const r = compiler.compile(m.uid.expression, 'claimMapping');
    if (!r.ok) errs.push(compileError(p.child('uid').child('expression'), m.uid.expression, r));
  }

  const seenKeys = new Set<string>();
  m.extra.forEach((mapping, i) => {
    const ep = p.child('extra').index(i);
    const kp = ep.child('key');
    errs.push(...domainPrefixedPathErrors(kp, mapping.key));
    if (mapping.key !== mapping.key.toLowerCase()) errs.push(fieldError.invalid(kp.text, mapping.key, 'must be lowercase'));
    if (isReservedExtraKey(mapping.key)) {
      errs.push(fieldError.invalid(kp.text, mapping.key, `${RESERVED_EXTRA_DOMAINS.join(', ')} and their subdomains are reserved for platform use`));
    }
    if (seenKeys.has(mapping.key)) {
      errs.push(fieldError.duplicate(kp.text, mapping.key));
      return;
    }
    seenKeys.add(mapping.key);
    if (mapping.valueExpression.length === 0) {
      errs.push(fieldError.required(ep.child('valueExpression').text, ''));
      return;
    }
    const r = compiler.compile(mapping.valueExpression, 'extraMapping');
    if (!r.ok) errs.push(compileError(ep.child('valueExpression'), mapping.valueExpression, r));
    else state.usesEmailVerifiedClaim ||= r.usesEmailVerifiedClaim;
  });

  if (state.usesEmailClaim && !state.usesEmailVerifiedClaim) {
    errs.push(fieldError.invalid(p.child('username').child('expression').text, m.username.expression,
      'claims.email_verified must be used in claimMappings.username.expression or claimMappings.extra[*].valueExpression or claimValidationRules[*].expression when claims.email is used in claimMappings.username.expression'));
  }
  return errs;
}

function validateUserValidationRules(compiler: ExpressionCompiler, rules: readonly UserValidationRule[], p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  rules.forEach((rule, i) => {
    const ep = p.index(i).child('expression');
    if (rule.expression.length === 0) {
      errs.push(fieldError.required(ep.text, ''));
      return;
    }
    if (seen.has(rule.expression)) {
      errs.push(fieldError.duplicate(ep.text, rule.expression));
      return;
    }
    seen.add(rule.expression);
    const r = compiler.compile(rule.expression, 'userValidation');
    if (!r.ok) errs.push(compileError(ep, rule.expression, r));
  });
  return errs;
}

/** The start-up message for a configuration that fails validation (upstream's wording). */
export function invalidConfigurationMessage(errs: readonly FieldError[], file?: string): string {
  return `invalid authentication configuration${file !== undefined ? ` in file ${JSON.stringify(file)}` : ''}: ${aggregateFieldErrors(errs)}`;
}
