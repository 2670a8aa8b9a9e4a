// validateResourceAttributes (pkg/apis/authorization/validation): a review's field and label
// selectors are either a rawSelector or requirements, never both nor neither; a requirement's
// operator may be one this server does not know (a newer client's), its other rules are
// metav1's. A rawSelector that does not parse is no validation error: the review is answered
// without it and says so in status.evaluationError.
import { appendErrors, fieldError, validateEach, type FieldError } from '../../core/api/field-errors.js';
import { labelValueErrors, qualifiedNameErrors } from '../../core/api/selectors/label-syntax.js';
import type { SelectorAttributesWire, SelectorRequirementWire } from '../../core/authz/selector-attributes.js';

const PATH = 'spec.resourceAttributes';

function oneOfErrors(s: SelectorAttributesWire, path: string): FieldError[] {
  const raw = s.rawSelector ?? '';
  const reqs = s.requirements ?? [];
  const errs: FieldError[] = [];
  if (raw && reqs.length) errs.push(fieldError.invalid(`${path}.rawSelector`, raw, 'may not specified at the same time as requirements'));
  if (!raw && !reqs.length) errs.push(fieldError.required(`${path}.requirements`, `when ${path} is specified, requirements or rawSelector is required`));
  return errs;
}

/** ValidateFieldSelectorRequirement and ValidateLabelSelectorRequirement, unknown operators allowed. */
function operatorErrors(r: SelectorRequirementWire, path: string): FieldError[] {
  const values = r.values ?? [];
  if ((r.operator === 'In' || r.operator === 'NotIn') && values.length === 0) {
    return [fieldError.required(`${path}.values`, "must be specified when `operator` is 'In' or 'NotIn'")];
  }
  if ((r.operator === 'Exists' || r.operator === 'DoesNotExist') && values.length > 0) {
    return [fieldError.forbidden(`${path}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'")];
  }
  return [];
}

function fieldRequirementErrors(r: SelectorRequirementWire, path: string): FieldError[] {
  return [
    ...(r.key ? [] : [fieldError.required(`${path}.key`, 'must be specified')]),
    ...operatorErrors(r, path),
  ];
}

function labelRequirementErrors(r: SelectorRequirementWire, path: string): FieldError[] {
  return [
    ...operatorErrors(r, path),
    ...qualifiedNameErrors(r.key ?? '').map((m) => fieldError.invalid(`${path}.key`, r.key ?? '', m)),
  ].concat(validateEach([], r.values, (v, i) => labelValueErrors(v).map((m) => fieldError.invalid(`${path}.values[${i}]`, v, m))));
}

export function selectorAttributesErrors(ra: { fieldSelector?: SelectorAttributesWire | null; labelSelector?: SelectorAttributesWire | null }): FieldError[] {
  const errs: FieldError[] = [];
  const check = (s: SelectorAttributesWire | null | undefined, name: string, each: (r: SelectorRequirementWire, path: string) => FieldError[]) => {
    if (!s) return;
    const path = `${PATH}.${name}`;
    appendErrors(errs, oneOfErrors(s, path));
    // A body may hold a million requirements: past what the answer reports, they are not looked at.
    validateEach(errs, s.requirements, (r, i) => each(r, `${path}.requirements[${i}]`));
  };
  check(ra.fieldSelector, 'fieldSelector', fieldRequirementErrors);
  check(ra.labelSelector, 'labelSelector', labelRequirementErrors);
  return errs;
}
