// ValidateAuthorizationConfiguration (k8s.io/apiserver/pkg/apis/apiserver/validation) and the
// kube-apiserver's extra rule that a non-Webhook authorizer is named after its type in lower case
// (pkg/kubeapiserver/authorizer LoadAndValidateData), with upstream's messages. Field paths are the
// fields' real places: upstream drops the `webhook.` step from its webhook paths
// (`authorizers[0].timeout`); plat writes `authorizers[0].webhook.timeout`.
import { statSync } from 'node:fs';
import path from 'node:path';
import { FieldPath, fieldError, formatFieldError, type FieldError } from '../../core/api/field-errors.js';
import { dns1123SubdomainErrors } from '../../core/api/selectors/label-syntax.js';
import { compileMatchCondition, MatchConditionError, MAX_MATCH_CONDITIONS } from '../../core/authz/match-conditions.js';
import { FAILURE_POLICIES, SUBJECT_ACCESS_REVIEW_VERSIONS } from '../../core/authz/webhook-settings.js';
import { formatDuration } from '../../core/flags/duration.js';
import type { AuthorizationConfigurationDoc, WebhookDoc } from './decode.js';

/** modes.AuthorizationModeChoices, sorted as sets.List prints them. */
export const AUTHORIZER_TYPES = ['ABAC', 'AlwaysAllow', 'AlwaysDeny', 'Node', 'RBAC', 'Webhook'];
const REPEATABLE_TYPES = new Set(['Webhook']);
const MAX_TIMEOUT_MS = 30_000;
const CONNECTION_TYPES = ['InClusterConfig', 'KubeConfigFile'];

const tooMany = (field: string, actual: number, max: number): FieldError => ({
  type: 'FieldValueTooMany', field, message: `Too many: ${actual}: must have at most ${max} items`,
});

/** Go's os.Stat error text for the common causes. */
function statError(file: string, err: NodeJS.ErrnoException): string {
  const why: Record<string, string> = { ENOENT: 'no such file or directory', EACCES: 'permission denied', ENOTDIR: 'not a directory', ELOOP: 'too many levels of symbolic links' };
  return `stat ${file}: ${why[err.code ?? ''] ?? err.message}`;
}

function validateWebhook(p: FieldPath, w: WebhookDoc): FieldError[] {
  const errs: FieldError[] = [];
  if (w.timeout === 0) errs.push(fieldError.required(p.child('timeout').text));
  else if (w.timeout > MAX_TIMEOUT_MS || w.timeout < 0) errs.push(fieldError.invalid(p.child('timeout').text, formatDuration(w.timeout), 'must be > 0s and <= 30s'));
  // 0 was defaulted (5m0s, 30s) when the file was read, as upstream defaults before validating.
  if (w.authorizedTTL < 0) errs.push(fieldError.invalid(p.child('authorizedTTL').text, formatDuration(w.authorizedTTL), 'must be > 0s'));
  if (w.unauthorizedTTL < 0) errs.push(fieldError.invalid(p.child('unauthorizedTTL').text, formatDuration(w.unauthorizedTTL), 'must be > 0s'));

  const sarVersion = p.child('subjectAccessReviewVersion').text;
  if (w.subjectAccessReviewVersion === '') errs.push(fieldError.required(sarVersion));
  else if (!(SUBJECT_ACCESS_REVIEW_VERSIONS as readonly string[]).includes(w.subjectAccessReviewVersion)) {
    errs.push(fieldError.notSupported(sarVersion, w.subjectAccessReviewVersion, SUBJECT_ACCESS_REVIEW_VERSIONS));
  }
  const mcVersion = p.child('matchConditionSubjectAccessReviewVersion').text;
  if (w.matchConditionSubjectAccessReviewVersion === '') {
    if (w.matchConditions.length > 0) errs.push(fieldError.required(mcVersion, 'required if match conditions are specified'));
  } else if (w.matchConditionSubjectAccessReviewVersion !== 'v1') {
    errs.push(fieldError.notSupported(mcVersion, w.matchConditionSubjectAccessReviewVersion, ['v1']));
  }
  const policy = p.child('failurePolicy').text;
  if (w.failurePolicy === '') errs.push(fieldError.required(policy));
  else if (!(FAILURE_POLICIES as readonly string[]).includes(w.failurePolicy)) errs.push(fieldError.notSupported(policy, w.failurePolicy, FAILURE_POLICIES));

  const ci = p.child('connectionInfo');
  const file = ci.child('kubeConfigFile').text;
  switch (w.connectionInfo.type) {
    case '':
      errs.push(fieldError.required(ci.child('type').text));
      break;
    case 'InClusterConfig':
      if (w.connectionInfo.kubeConfigFile !== undefined) errs.push(fieldError.invalid(file, w.connectionInfo.kubeConfigFile, 'can only be set when type=KubeConfigFile'));
      // Valid upstream, impossible here: plat does not run as a pod with a service account token.
      else errs.push(fieldError.invalid(ci.child('type').text, 'InClusterConfig', 'plat does not run in a cluster: use type KubeConfigFile'));
      break;
    case 'KubeConfigFile': {
      const f = w.connectionInfo.kubeConfigFile;
      if (f === undefined || f === '') errs.push(fieldError.required(file));
      else if (!path.isAbsolute(f)) errs.push(fieldError.invalid(file, f, 'must be an absolute path'));
      else {
        try {
          if (!statSync(f).isFile()) errs.push(fieldError.invalid(file, f, 'must be a regular file'));
        } catch (err) {
          errs.push(fieldError.invalid(file, f, `error loading file: ${statError(f, err as NodeJS.ErrnoException)}`));
        }
      }
      break;
    }
    default:
      errs.push(fieldError.notSupported(ci.child('type').text, w.connectionInfo.type, CONNECTION_TYPES));
  }

  const conditions = p.child('matchConditions');
  if (w.matchConditions.length > MAX_MATCH_CONDITIONS) {
    errs.push(tooMany(conditions.text, w.matchConditions.length, MAX_MATCH_CONDITIONS));
    return errs;
  }
  const seen = new Set<string>();
  w.matchConditions.forEach(({ expression }, i) => {
    const at = conditions.index(i).child('expression').text;
    if (expression.trim() === '') return void errs.push(fieldError.required(at));
    if (seen.has(expression)) return void errs.push(fieldError.duplicate(at, expression));
    seen.add(expression);
    try {
      compileMatchCondition(expression);
    } catch (err) {
      if (!(err instanceof MatchConditionError)) throw err;
      errs.push(fieldError.invalid(at, expression, err.detail));
    }
  });
  return errs;
}

/** Every problem of the configuration, as `path: message` lines; empty when it is valid. */
export function validateAuthorizationConfiguration(c: AuthorizationConfigurationDoc): string[] {
  const errs: FieldError[] = [];
  if (c.authorizers.length === 0) errs.push(fieldError.required('authorizers', 'at least one authorization mode must be defined'));
  const seenTypes = new Set<string>();
  const seenNames = new Set<string>();
  c.authorizers.forEach((a, i) => {
    const p = FieldPath.root('authorizers').index(i);
    if (a.type === '') return void errs.push(fieldError.required(p.child('type').text));
    if (!AUTHORIZER_TYPES.includes(a.type)) return void errs.push(fieldError.notSupported(p.child('type').text, a.type, AUTHORIZER_TYPES));
    if (seenTypes.has(a.type) && !REPEATABLE_TYPES.has(a.type)) return void errs.push(fieldError.duplicate(p.child('type').text, a.type));
    seenTypes.add(a.type);

    const name = p.child('name').text;
    if (a.name === '') errs.push(fieldError.required(name));
    else if (seenNames.has(a.name)) errs.push(fieldError.duplicate(name, a.name));
    else {
      const bad = dns1123SubdomainErrors(a.name);
      if (bad.length) errs.push(fieldError.invalid(name, a.name, `authorizer name is invalid: ${bad.join(', ')}`));
    }
    seenNames.add(a.name);

    if (a.type === 'Webhook') {
      if (a.webhook === undefined) return void errs.push(fieldError.required(p.child('webhook').text, 'required when type=Webhook'));
      errs.push(...validateWebhook(p.child('webhook'), a.webhook));
    } else if (a.webhook !== undefined) {
      errs.push(fieldError.invalid(p.child('webhook').text, 'non-null', 'may only be specified when type=Webhook'));
    }
  });
  if (errs.length) return errs.map(formatFieldError);

  // Only once the file is otherwise valid, as upstream: names that --authorization-mode would give.
  return c.authorizers.flatMap((a) => {
    if (a.type === 'Webhook') return [];
    const expected = a.type.toLowerCase();
    return expected === a.name ? [] : [`expected name ${expected} for authorizer ${a.type} instead of ${a.name}`];
  });
}
