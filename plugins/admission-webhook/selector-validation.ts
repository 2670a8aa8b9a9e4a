// metav1validation.ValidateLabelSelector with field paths, for namespaceSelector and
// objectSelector (the query-string selector parser in core answers 400s, not field errors).
import { fieldError, type FieldError } from '../../core/api/field-errors.js';
import { labelValueErrors, qualifiedNameErrors } from '../../core/api/selectors/label-syntax.js';
import type { LabelSelector } from './types.js';

const sortedKeys = (m: Record<string, string>): string[] => Object.keys(m).sort();

export function validateLabelSelector(ps: LabelSelector | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!ps) return errs;
  const labels = ps.matchLabels ?? {};
  for (const k of sortedKeys(labels)) {
    for (const msg of qualifiedNameErrors(k)) errs.push(fieldError.invalid(`${path}.matchLabels`, k, msg));
    for (const msg of labelValueErrors(labels[k]!)) errs.push(fieldError.invalid(`${path}.matchLabels`, labels[k]!, msg));
  }
  (ps.matchExpressions ?? []).forEach((sr, i) => {
    const at = `${path}.matchExpressions[${i}]`;
    const values = sr.values ?? [];
    switch (sr.operator) {
      case 'In': case 'NotIn':
        if (values.length === 0) errs.push(fieldError.required(`${at}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists': case 'DoesNotExist':
        if (values.length > 0) errs.push(fieldError.forbidden(`${at}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        break;
      default:
        errs.push(fieldError.invalid(`${at}.operator`, sr.operator ?? '', 'not a valid selector operator'));
    }
    for (const msg of qualifiedNameErrors(sr.key ?? '')) errs.push(fieldError.invalid(`${at}.key`, sr.key ?? '', msg));
    values.forEach((v, j) => {
      for (const msg of labelValueErrors(v)) errs.push(fieldError.invalid(`${at}.values[${j}]`, v, msg));
    });
  });
  return errs;
}
