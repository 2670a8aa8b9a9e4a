// Field and label selectors as authorization attributes (AuthorizeWithSelectors, beta and on by
// default in 1.32): a list, watch or deletecollection narrowed by `fieldSelector=` or
// `labelSelector=`, or an access review's spec.resourceAttributes.fieldSelector/labelSelector,
// reaches the authorizers, and the webhook sees it as requirements. A selector that does not parse
// is dropped, never refused here: selectors only narrow, so asking about the broader action is
// safe (the request itself fails its own parse later; a review says so in evaluationError).
import { isStatusError } from '../api/errors.js';
import { parseFieldSelector, type FieldRequirement } from '../api/selectors/field-selector.js';
import { labelSelectorFromObject, parseLabelSelector, type LabelRequirement } from '../api/selectors/label-selector.js';

/** authorizer.AttributesRecord's parsed selectors and their parse errors. */
export interface SelectorAttributes {
  readonly fieldRequirements: readonly FieldRequirement[];
  readonly fieldError?: string;
  readonly labelRequirements: readonly LabelRequirement[];
  readonly labelError?: string;
}

/** metav1.FieldSelectorRequirement / LabelSelectorRequirement, in the Go field order. */
export interface SelectorRequirementWire {
  readonly key: string;
  readonly operator: string;
  readonly values?: readonly string[];
}

/** authorization/v1 FieldSelectorAttributes and LabelSelectorAttributes. */
export interface SelectorAttributesWire {
  readonly rawSelector?: string;
  readonly requirements?: readonly SelectorRequirementWire[];
}

const NONE: SelectorAttributes = { fieldRequirements: [], labelRequirements: [] };

/** Parses one selector; a 400 from the parser is its parse error. */
function attempt<T>(parse: () => readonly T[]): { requirements: readonly T[]; error?: string } {
  try {
    return { requirements: parse() };
  } catch (e) {
    if (!isStatusError(e)) throw e;
    return { requirements: [], error: e.message };
  }
}

function combine(
  field: { requirements: readonly FieldRequirement[]; error?: string } | undefined,
  label: { requirements: readonly LabelRequirement[]; error?: string } | undefined,
): SelectorAttributes | undefined {
  if (!field && !label) return undefined;
  return {
    ...NONE,
    ...(field ? { fieldRequirements: field.requirements, ...(field.error !== undefined ? { fieldError: field.error } : {}) } : {}),
    ...(label ? { labelRequirements: label.requirements, ...(label.error !== undefined ? { labelError: label.error } : {}) } : {}),
  };
}

/** GetAuthorizerAttributes: the raw query selectors of a collection request. */
export function selectorsFromQuery(fieldSelector: string, labelSelector: string): SelectorAttributes | undefined {
  return combine(
    fieldSelector ? attempt(() => parseFieldSelector(fieldSelector).requirements) : undefined,
    labelSelector ? attempt(() => parseLabelSelector(labelSelector).requirements) : undefined,
  );
}

/**
 * ResourceAttributesFrom (pkg/registry/authorization/util): a rawSelector is parsed, requirements
 * are converted one by one, and the ones that do not convert are dropped with an error while the
 * others still count.
 */
export function selectorsFromReview(ra: { fieldSelector?: SelectorAttributesWire | null; labelSelector?: SelectorAttributesWire | null }): SelectorAttributes | undefined {
  const f = ra.fieldSelector ?? undefined;
  const l = ra.labelSelector ?? undefined;
  const field = f && (f.requirements?.length ? convertEach(f.requirements, fieldRequirementFrom)
    : f.rawSelector ? attempt(() => parseFieldSelector(f.rawSelector!).requirements) : { requirements: [] });
  const label = l && (l.requirements?.length ? convertEach(l.requirements, labelRequirementFrom)
    : l.rawSelector ? attempt(() => parseLabelSelector(l.rawSelector!).requirements) : { requirements: [] });
  return combine(field, label);
}

function convertEach<T>(wire: readonly SelectorRequirementWire[], convert: (r: SelectorRequirementWire) => T): { requirements: T[]; error?: string } {
  const requirements: T[] = [];
  const errors: string[] = [];
  for (const r of wire) {
    try {
      requirements.push(convert(r));
    } catch (e) {
      if (!(e instanceof Error)) throw e;
      errors.push(e.message);
    }
  }
  return { requirements, ...(errors.length ? { error: errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]` } : {}) };
}

/** fieldSelectorAsSelector: one value only, In as `=` and NotIn as `!=`, as a parsed selector has them. */
function fieldRequirementFrom(r: SelectorRequirementWire): FieldRequirement {
  const values = r.values ?? [];
  if (values.length > 1) throw new Error('fieldSelectors do not yet support multiple values');
  switch (r.operator) {
    case 'In':
      if (values.length !== 1) throw new Error('fieldSelectors in must have one value');
      return { field: r.key, operator: '=', value: values[0]! };
    case 'NotIn':
      if (values.length !== 1) throw new Error('fieldSelectors not in must have one value');
      return { field: r.key, operator: '!=', value: values[0]! };
    case 'Exists': case 'DoesNotExist':
      throw new Error(`fieldSelectors do not yet support ${r.operator}`);
    default:
      throw new Error(`${JSON.stringify(r.operator)} is not a valid field selector operator`);
  }
}

/** labelSelectorAsSelector: labels.NewRequirement's checks, the values in the order given. */
function labelRequirementFrom(r: SelectorRequirementWire): LabelRequirement {
  return labelSelectorFromObject({ matchExpressions: [{ key: r.key, operator: r.operator, ...(r.values ? { values: r.values } : {}) }] }).requirements[0]!;
}

const FIELD_OPERATORS: Readonly<Record<string, string>> = { '=': 'In', '!=': 'NotIn' };
const LABEL_OPERATORS: Readonly<Record<string, string>> = {
  '=': 'In', '==': 'In', in: 'In', '!=': 'NotIn', notin: 'NotIn', exists: 'Exists', '!': 'DoesNotExist',
};

/**
 * The webhook authorizer's resourceAttributesFrom: requirements only (no rawSelector), operators
 * it does not know (`>`, `<`) left out, and a selector left out when nothing of it remains.
 */
export function selectorsToWire(s: SelectorAttributes | undefined): { fieldSelector?: SelectorAttributesWire; labelSelector?: SelectorAttributesWire } {
  if (!s) return {};
  const field = s.fieldRequirements.filter((r) => FIELD_OPERATORS[r.operator])
    .map((r): SelectorRequirementWire => ({ key: r.field, operator: FIELD_OPERATORS[r.operator]!, values: [r.value] }));
  const label = s.labelRequirements.filter((r) => Object.prototype.hasOwnProperty.call(LABEL_OPERATORS, r.operator))
    .map((r): SelectorRequirementWire => ({ key: r.key, operator: LABEL_OPERATORS[r.operator]!, ...(r.values.length ? { values: [...r.values] } : {}) }));
  return {
    ...(field.length ? { fieldSelector: { requirements: field } } : {}),
    ...(label.length ? { labelSelector: { requirements: label } } : {}),
  };
}

/** BuildEvaluationError's notes on selectors a review could not (fully) use. */
export function selectorEvaluationNotes(s: SelectorAttributes | undefined): string[] {
  if (!s) return [];
  const note = (which: string, kept: number) => `spec.resourceAttributes.${which} ${kept ? 'partially ' : ''}ignored due to parse error`;
  return [
    ...(s.fieldError !== undefined ? [note('fieldSelector', s.fieldRequirements.length)] : []),
    ...(s.labelError !== undefined ? [note('labelSelector', s.labelRequirements.length)] : []),
  ];
}
