// Admission plugins' audit annotations: admission.Attributes' AddAnnotation (level Metadata) and
// AddAnnotationWithLevel (Metadata or Request), and the auditHandler that copies them into the
// request's audit event. A key must be a qualified `prefix/name`; a key holds one value and level
// for the whole admission (both phases); a bad key, level or overwrite throws upstream's error.
// One that the event's level covers lands in its `annotations` at once (upstream copies after each
// plugin returns, which gives the same event); an event keeps a key's first value
// (RequestAudit.addAnnotation), as AddAuditAnnotation.
import { qualifiedNameErrors } from '../api/selectors/label-syntax.js';
import { levelAtLeast, type AuditLevel } from '../audit/event.js';
import { goQuote } from '../go-quote.js';

/** The request's audit event, as admission reaches it (a RequestAudit). */
export interface AnnotationTarget {
  readonly level: AuditLevel;
  addAnnotation(key: string, value: string): void;
}

/** The two methods an AdmissionRequest offers its plugins. */
export interface AnnotationMethods {
  addAnnotation(key: string, value: string): void;
  addAnnotationWithLevel(key: string, value: string, level: AuditLevel): void;
}

/** checkKeyFormat, with upstream's texts (its example key in plat's group). */
function checkKeyFormat(key: string): void {
  if (key.split('/').length !== 2) {
    throw new Error("annotation key has invalid format, the right format is a DNS subdomain prefix and '/' and key name. (e.g. 'podsecuritypolicy.admission.platform/admit-policy')");
  }
  const errs = qualifiedNameErrors(key);
  if (errs.length) throw new Error(`annotation key has invalid format ${errs.join(',')}. A qualified name like 'podsecuritypolicy.admission.platform/admit-policy' is required.`);
}

function recorder(audit: AnnotationTarget | undefined): AnnotationMethods {
  const set = new Map<string, { level: AuditLevel; value: string }>();
  const withLevel = (key: string, value: string, level: AuditLevel): void => {
    checkKeyFormat(key);
    if (level !== 'Metadata' && level !== 'Request') {
      throw new Error(`admission annotations are not allowed to be set at level other than Metadata and Request, key: ${goQuote(key)}, level: ${level}`);
    }
    const had = set.get(key);
    if (had && (had.level !== level || had.value !== value)) {
      // Go's %v of an audit.Annotation struct; "allowd" is upstream's spelling.
      throw new Error(`admission annotations are not allowd to be overwritten, key:${goQuote(key)}, old value: {${had.level} ${had.value}}, new value: {${level} ${value}}`);
    }
    set.set(key, { level, value });
    if (audit && levelAtLeast(audit.level, level)) audit.addAnnotation(key, value);
  };
  return { addAnnotation: (key, value) => withLevel(key, value, 'Metadata'), addAnnotationWithLevel: withLevel };
}

const recorders = new WeakMap<object, AnnotationMethods>();

/** The annotation methods of one request (its context object), shared by every admission of it. */
export function admissionAnnotations(request: { readonly audit?: AnnotationTarget }): AnnotationMethods {
  let r = recorders.get(request);
  if (!r) recorders.set(request, (r = recorder(request.audit)));
  return r;
}
