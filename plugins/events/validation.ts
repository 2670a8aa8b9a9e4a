// ValidateEventCreate / ValidateEventUpdate for core/v1 (pkg/apis/core/validation/events.go): a v1
// write gets legacyValidateEvent only, on create and on update alike (the strict rules belong to
// events.k8s.io/v1, which plat does not serve). Without eventTime an Event is an old-style one whose
// namespace must be its object's (or default, for a cluster-scoped object); with it, the reporting
// controller, instance, action and reason are required and lengths are limited.
import { fieldError, type FieldError } from '../../core/api/field-errors.js';
import type { CoreEvent } from '../../core/api/event.js';
import { dns1123SubdomainErrors, qualifiedNameErrors } from '../../core/api/selectors/label-syntax.js';

export const REPORTING_INSTANCE_LENGTH_LIMIT = 128;
export const ACTION_LENGTH_LIMIT = 128;
export const REASON_LENGTH_LIMIT = 128;
export const NOTE_LENGTH_LIMIT = 1024;

const DEFAULT_NAMESPACE = 'default';
/** metav1.NamespaceSystem under plat's name. */
const SYSTEM_NAMESPACE = 'plat-system';

/** Go's len: bytes, not characters. */
const len = (s: string | undefined): number => (s ? Buffer.byteLength(s) : 0);
const atMost = (limit: number) => `can have at most ${limit} characters`;

/** legacyValidateEvent: `namespace` is the request's (the store sets metadata.namespace from the path). */
export function validateEvent(event: CoreEvent): FieldError[] {
  const errs: FieldError[] = [];
  const namespace = event.metadata.namespace ?? '';
  const involvedNamespace = event.involvedObject?.namespace ?? '';
  const mismatch = () => fieldError.invalid('involvedObject.namespace', involvedNamespace, 'does not match event.namespace');
  if (!event.eventTime) {
    if (!involvedNamespace) {
      // A cluster-scoped object's events live in no namespace, or in default for old clients.
      if (namespace !== '' && namespace !== DEFAULT_NAMESPACE) errs.push(mismatch());
    } else if (namespace !== involvedNamespace) {
      errs.push(mismatch());
    }
  } else {
    if (!involvedNamespace && namespace !== DEFAULT_NAMESPACE && namespace !== SYSTEM_NAMESPACE) errs.push(mismatch());
    const controller = event.reportingComponent ?? '';
    if (!controller) errs.push(fieldError.required('reportingController'));
    for (const msg of qualifiedNameErrors(controller)) errs.push(fieldError.invalid('reportingController', controller, msg));
    const instance = event.reportingInstance ?? '';
    if (!instance) errs.push(fieldError.required('reportingInstance'));
    if (len(instance) > REPORTING_INSTANCE_LENGTH_LIMIT) errs.push(fieldError.invalid('reportingInstance', '', atMost(REPORTING_INSTANCE_LENGTH_LIMIT)));
    if (!event.action) errs.push(fieldError.required('action'));
    if (len(event.action) > ACTION_LENGTH_LIMIT) errs.push(fieldError.invalid('action', '', atMost(ACTION_LENGTH_LIMIT)));
    if (!event.reason) errs.push(fieldError.required('reason'));
    if (len(event.reason) > REASON_LENGTH_LIMIT) errs.push(fieldError.invalid('reason', '', atMost(REASON_LENGTH_LIMIT)));
    if (len(event.message) > NOTE_LENGTH_LIMIT) errs.push(fieldError.invalid('message', '', atMost(NOTE_LENGTH_LIMIT)));
  }
  for (const msg of dns1123SubdomainErrors(namespace)) errs.push(fieldError.invalid('namespace', namespace, msg));
  return errs;
}
