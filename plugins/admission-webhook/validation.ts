// Validation of webhook configurations, as upstream's admissionregistration validation
// (ValidateValidatingWebhookConfiguration and friends, webhook.ValidateWebhookURL/Service):
// same checks, order, field paths and messages. On update the rules that were tightened after
// v1beta1 (side effects, review versions, unique names, selector values, match conditions) are
// only enforced when the old object already met them, as upstream does for stored objects.
import { appendErrors, fieldError, validateEach, type FieldError } from '../../core/api/field-errors.js';
import { dns1123SubdomainErrors, qualifiedNameErrors, regexError } from '../../core/api/selectors/label-syntax.js';
import { compileMatchCondition } from './cel/compile.js';
import { GoUrlError, parseGoUrl } from './go-url.js';
import { validateLabelSelector } from './selector-validation.js';
import {
  ADMISSION_REVIEW_VERSIONS, FAILURE_POLICIES, MATCH_POLICIES, NO_SIDE_EFFECT_CLASSES, OPERATIONS, REINVOCATION_POLICIES,
  SCOPES, SIDE_EFFECT_CLASSES, type MatchCondition, type RuleWithOperations, type Webhook, type WebhookClientConfig,
  type WebhookConfiguration,
} from './types.js';

export interface ValidationOptions {
  readonly ignoreMatchConditions: boolean;
  readonly requireNoSideEffects: boolean;
  readonly requireRecognizedAdmissionReviewVersion: boolean;
  readonly requireUniqueWebhookNames: boolean;
  readonly allowInvalidLabelValueInSelector: boolean;
}

export const CREATE_OPTIONS: ValidationOptions = {
  ignoreMatchConditions: false, requireNoSideEffects: true, requireRecognizedAdmissionReviewVersion: true,
  requireUniqueWebhookNames: true, allowInvalidLabelValueInSelector: false,
};

const MAX_MATCH_CONDITIONS = 64;
const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL = new RegExp(`^${DNS1035_LABEL_FMT}$`);
const DNS1035_LABEL_MSG = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";

function dns1035LabelErrors(v: string): string[] {
  const errs: string[] = [];
  if (Buffer.byteLength(v) > 63) errs.push('must be no more than 63 characters');
  if (!DNS1035_LABEL.test(v)) errs.push(regexError(DNS1035_LABEL_MSG, DNS1035_LABEL_FMT, 'my-name', 'abc-123'));
  return errs;
}

const tooMany = (field: string, actual: number, max: number): FieldError =>
  ({ type: 'FieldValueTooMany', field, message: `Too many: ${actual}: must have at most ${max} items` });

/** utilvalidation.IsFullyQualifiedName. */
function fullyQualifiedNameErrors(path: string, name: string): FieldError[] {
  if (!name) return [fieldError.required(path, '')];
  const errs = dns1123SubdomainErrors(name);
  if (errs.length) return [fieldError.invalid(path, name, errs.join(','))];
  if (name.split('.').length < 3) return [fieldError.invalid(path, name, 'should be a domain with at least three segments separated by dots')];
  return [];
}

function validateResources(resources: readonly string[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (resources.length === 0) errs.push(fieldError.required(path, ''));
  const resourcesWithWildcardSubresources = new Set<string>();
  const subresourcesWithWildcardResource = new Set<string>();
  let hasDoubleWildcard = false;
  let hasSingleWildcard = false;
  let hasResourceWithoutSubresource = false;
  validateEach(errs, resources, (resSub, i) => {
    if (resSub === '') { errs.push(fieldError.required(`${path}[${i}]`, '')); return; }
    if (resSub === '*/*') hasDoubleWildcard = true;
    if (resSub === '*') hasSingleWildcard = true;
    const slash = resSub.indexOf('/');
    if (slash < 0) { hasResourceWithoutSubresource = resSub !== '*'; return; }
    const res = resSub.slice(0, slash);
    const sub = resSub.slice(slash + 1);
    if (resourcesWithWildcardSubresources.has(res)) errs.push(fieldError.invalid(`${path}[${i}]`, resSub, `if '${res}/*' is present, must not specify ${resSub}`));
    if (subresourcesWithWildcardResource.has(sub)) errs.push(fieldError.invalid(`${path}[${i}]`, resSub, `if '*/${sub}' is present, must not specify ${resSub}`));
    if (sub === '*') resourcesWithWildcardSubresources.add(res);
    if (res === '*') subresourcesWithWildcardResource.add(sub);
  });
  if (resources.length > 1 && hasDoubleWildcard) errs.push(fieldError.invalid(path, resources, "if '*/*' is present, must not specify other resources"));
  if (hasSingleWildcard && hasResourceWithoutSubresource) errs.push(fieldError.invalid(path, resources, "if '*' is present, must not specify other resources without subresources"));
  return errs;
}

function validateRule(rule: RuleWithOperations, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const ops = rule.operations ?? [];
  if (ops.length === 0) errs.push(fieldError.required(`${path}.operations`, ''));
  if (ops.length > 1 && ops.includes('*')) errs.push(fieldError.invalid(`${path}.operations`, ops, "if '*' is present, must not specify other operations"));
  validateEach(errs, ops, (op, i) => {
    if (!(OPERATIONS as readonly string[]).includes(op)) errs.push(fieldError.notSupported(`${path}.operations[${i}]`, op, OPERATIONS));
  });
  const groups = rule.apiGroups ?? [];
  if (groups.length === 0) errs.push(fieldError.required(`${path}.apiGroups`, ''));
  if (groups.length > 1 && groups.includes('*')) errs.push(fieldError.invalid(`${path}.apiGroups`, groups, "if '*' is present, must not specify other API groups"));
  const versions = rule.apiVersions ?? [];
  if (versions.length === 0) errs.push(fieldError.required(`${path}.apiVersions`, ''));
  if (versions.length > 1 && versions.includes('*')) errs.push(fieldError.invalid(`${path}.apiVersions`, versions, "if '*' is present, must not specify other API versions"));
  validateEach(errs, versions, (v, i) => (v === '' ? [fieldError.required(`${path}.apiVersions[${i}]`, '')] : []));
  appendErrors(errs, validateResources(rule.resources ?? [], `${path}.resources`));
  if (rule.scope !== undefined && !(SCOPES as readonly string[]).includes(rule.scope)) errs.push(fieldError.notSupported(`${path}.scope`, rule.scope, SCOPES));
  return errs;
}

/** webhook.ValidateWebhookURL with forceHttps. */
export function validateWebhookUrl(path: string, url: string): FieldError[] {
  const form = '; desired format: https://host[/path]';
  let u;
  try {
    u = parseGoUrl(url);
  } catch (e) {
    if (e instanceof GoUrlError) return [fieldError.required(path, `url must be a valid URL: ${e.message}${form}`)];
    throw e;
  }
  const errs: FieldError[] = [];
  if (u.scheme !== 'https') errs.push(fieldError.invalid(path, u.scheme, `'https' is the only allowed URL scheme${form}`));
  if (u.host === '') errs.push(fieldError.invalid(path, u.host, `host must be provided${form}`));
  if (u.user !== undefined) errs.push(fieldError.invalid(path, u.user, 'user information is not permitted in the URL'));
  if (u.fragment !== '') errs.push(fieldError.invalid(path, u.fragment, 'fragments are not permitted in the URL'));
  if (u.rawQuery !== '') errs.push(fieldError.invalid(path, u.rawQuery, 'query parameters are not permitted in the URL'));
  return errs;
}

/** webhook.ValidateWebhookService. */
function validateWebhookService(path: string, svc: NonNullable<WebhookClientConfig['service']>): FieldError[] {
  const errs: FieldError[] = [];
  if (!svc.name) errs.push(fieldError.required(`${path}.name`, 'service name is required'));
  if (!svc.namespace) errs.push(fieldError.required(`${path}.namespace`, 'service namespace is required'));
  const port = svc.port ?? 443;
  if (!(Number.isInteger(port) && port >= 1 && port <= 65535)) {
    errs.push(fieldError.invalid(`${path}.port`, port, 'port is not valid: must be between 1 and 65535, inclusive'));
  }
  const p = svc.path;
  if (p === undefined || p === '' || p === '/') return errs;
  if (p === '//') return [...errs, fieldError.invalid(`${path}.path`, p, 'segment[0] may not be empty')];
  if (!p.startsWith('/')) errs.push(fieldError.invalid(`${path}.path`, p, "must start with a '/'"));
  let toCheck = p.slice(1);
  if (toCheck.endsWith('/')) toCheck = toCheck.slice(0, -1);
  toCheck.split('/').forEach((step, i) => {
    if (step === '') { errs.push(fieldError.invalid(`${path}.path`, p, `segment[${i}] may not be empty`)); return; }
    for (const failure of dns1123SubdomainErrors(step)) errs.push(fieldError.invalid(`${path}.path`, p, `segment[${i}]: ${failure}`));
  });
  return errs;
}

function validateMatchConditions(conditions: readonly MatchCondition[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (conditions.length > MAX_MATCH_CONDITIONS) errs.push(tooMany(path, conditions.length, MAX_MATCH_CONDITIONS));
  const names = new Set<string>();
  validateEach(errs, conditions, (c, i) => {
    const at = `${path}[${i}]`;
    const expression = (c.expression ?? '').trim();
    if (expression === '') errs.push(fieldError.required(`${at}.expression`, ''));
    else {
      const compiled = compileMatchCondition(expression);
      if ('error' in compiled) errs.push(fieldError.invalid(`${at}.expression`, expression, compiled.error));
    }
    const name = c.name ?? '';
    if (name === '') errs.push(fieldError.required(`${at}.name`, ''));
    else for (const msg of qualifiedNameErrors(name)) errs.push(fieldError.invalid(`${at}.name`, name, msg));
    if (name !== '') {
      if (names.has(name)) errs.push(fieldError.duplicate(`${at}.name`, name));
      else names.add(name);
    }
  });
  return errs;
}

function validateWebhook(hook: Webhook, mutating: boolean, opts: ValidationOptions, path: string): FieldError[] {
  const errs: FieldError[] = [...fullyQualifiedNameErrors(`${path}.name`, hook.name ?? '')];
  validateEach(errs, hook.rules, (r, i) => validateRule(r, `${path}.rules[${i}]`));
  if (hook.failurePolicy !== undefined && !(FAILURE_POLICIES as readonly string[]).includes(hook.failurePolicy)) {
    errs.push(fieldError.notSupported(`${path}.failurePolicy`, hook.failurePolicy, FAILURE_POLICIES));
  }
  if (hook.matchPolicy !== undefined && !(MATCH_POLICIES as readonly string[]).includes(hook.matchPolicy)) {
    errs.push(fieldError.notSupported(`${path}.matchPolicy`, hook.matchPolicy, MATCH_POLICIES));
  }
  const allowedSideEffects: readonly string[] = opts.requireNoSideEffects ? NO_SIDE_EFFECT_CLASSES : SIDE_EFFECT_CLASSES;
  if (hook.sideEffects === undefined) errs.push(fieldError.required(`${path}.sideEffects`, `must specify one of ${allowedSideEffects.join(', ')}`));
  else if (!allowedSideEffects.includes(hook.sideEffects)) errs.push(fieldError.notSupported(`${path}.sideEffects`, hook.sideEffects, allowedSideEffects));
  if (hook.timeoutSeconds !== undefined && (hook.timeoutSeconds > 30 || hook.timeoutSeconds < 1)) {
    errs.push(fieldError.invalid(`${path}.timeoutSeconds`, hook.timeoutSeconds, 'the timeout value must be between 1 and 30 seconds'));
  }
  const selectorErrs = (p: string, s: Webhook['namespaceSelector']) => validateLabelSelector(s, p)
    .filter((e) => !(opts.allowInvalidLabelValueInSelector && /\.values\[\d+\]$/.test(e.field)));
  appendErrors(errs, selectorErrs(`${path}.namespaceSelector`, hook.namespaceSelector));
  appendErrors(errs, selectorErrs(`${path}.objectSelector`, hook.objectSelector));
  if (mutating && hook.reinvocationPolicy !== undefined && !(REINVOCATION_POLICIES as readonly string[]).includes(hook.reinvocationPolicy)) {
    errs.push(fieldError.notSupported(`${path}.reinvocationPolicy`, hook.reinvocationPolicy, REINVOCATION_POLICIES));
  }
  const cc = hook.clientConfig ?? {};
  if ((cc.url === undefined) === (cc.service === undefined)) errs.push(fieldError.required(`${path}.clientConfig`, 'exactly one of url or service is required'));
  else if (cc.url !== undefined) appendErrors(errs, validateWebhookUrl(`${path}.clientConfig.url`, cc.url));
  else appendErrors(errs, validateWebhookService(`${path}.clientConfig.service`, cc.service!));
  if (!opts.ignoreMatchConditions) appendErrors(errs, validateMatchConditions(hook.matchConditions ?? [], `${path}.matchConditions`));
  return errs;
}

function validateAdmissionReviewVersions(versions: readonly string[], requireRecognized: boolean, path: string): FieldError[] {
  const accepted: readonly string[] = ADMISSION_REVIEW_VERSIONS;
  if (versions.length < 1) return [fieldError.required(path, `must specify one of ${accepted.join(', ')}`)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let hasAccepted = false;
  validateEach(errs, versions, (v, i) => {
    if (seen.has(v)) { errs.push(fieldError.invalid(`${path}[${i}]`, v, 'duplicate version')); return; }
    seen.add(v);
    for (const msg of dns1035LabelErrors(v)) errs.push(fieldError.invalid(`${path}[${i}]`, v, msg));
    if (accepted.includes(v)) hasAccepted = true;
  });
  if (requireRecognized && !hasAccepted) errs.push(fieldError.invalid(path, versions, `must include at least one of ${accepted.join(', ')}`));
  return errs;
}

/** The configuration's own rules (ObjectMeta is checked by the store, the name by validateName). */
export function validateConfiguration(obj: WebhookConfiguration, mutating: boolean, opts: ValidationOptions = CREATE_OPTIONS): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  validateEach(errs, obj.webhooks, (hook, i) => {
    const at = `webhooks[${i}]`;
    appendErrors(errs, validateWebhook(hook, mutating, opts, at));
    appendErrors(errs, validateAdmissionReviewVersions(hook.admissionReviewVersions ?? [], opts.requireRecognizedAdmissionReviewVersion, `${at}.admissionReviewVersions`));
    if (opts.requireUniqueWebhookNames && hook.name) {
      if (names.has(hook.name)) errs.push(fieldError.duplicate(`${at}.name`, hook.name));
      else names.add(hook.name);
    }
  });
  return errs;
}

/** The options upstream derives from the stored object for an update. */
export function updateOptions(obj: WebhookConfiguration, old: WebhookConfiguration): ValidationOptions {
  const hooks = obj.webhooks ?? [];
  const oldHooks = old.webhooks ?? [];
  const sameConditions = hooks.length === oldHooks.length &&
    oldHooks.every((h, i) => JSON.stringify(h.matchConditions ?? null) === JSON.stringify(hooks[i]!.matchConditions ?? null));
  const accepted: readonly string[] = ADMISSION_REVIEW_VERSIONS;
  const names = oldHooks.map((h) => h.name);
  return {
    ignoreMatchConditions: sameConditions,
    requireNoSideEffects: oldHooks.every((h) => h.sideEffects !== undefined && (NO_SIDE_EFFECT_CLASSES as readonly string[]).includes(h.sideEffects)),
    requireRecognizedAdmissionReviewVersion: oldHooks.every((h) => !(h.admissionReviewVersions?.length) || h.admissionReviewVersions.some((v) => accepted.includes(v))),
    requireUniqueWebhookNames: new Set(names).size === names.length,
    allowInvalidLabelValueInSelector: oldHooks.some((h) =>
      validateLabelSelector(h.namespaceSelector, '').length > 0 || validateLabelSelector(h.objectSelector, '').length > 0),
  };
}
