// CreateOptions, UpdateOptions and PatchOptions from the query, checked as apimachinery's
// meta/v1 validation checks them (ValidateCreateOptions, ValidateUpdateOptions,
// ValidatePatchOptions): every problem in one 422, in upstream's order.
import { fieldError, type FieldError } from '../api/field-errors.js';
import { optionsInvalid } from './options-invalid.js';
import { APPLY_PATCH } from './patch-decode.js';

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';
export interface WriteOptions {
  readonly dryRun: boolean;
  readonly validation: FieldValidation;
  readonly fieldManager: string;
}

const FIELD_MANAGER_MAX_LENGTH = 128;

/**
 * `patchType` is given for PatchOptions only. Query values decode as the parameter codec reads
 * them: the first value of a string field; `force` is set by any value at all, even `force=false`.
 */
export function validateWriteOptions(kind: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions', query: URLSearchParams, patchType?: string): WriteOptions {
  const fieldManager = query.get('fieldManager') ?? '';
  const dryRun = query.getAll('dryRun');
  const validation = query.get('fieldValidation') ?? '';
  const errs: FieldError[] = [];
  if (kind === 'PatchOptions') {
    if (patchType !== APPLY_PATCH) {
      if (query.has('force')) errs.push(fieldError.forbidden('force', 'may not be specified for non-apply patch'));
    } else if (fieldManager === '') {
      errs.push(fieldError.required('fieldManager', 'is required for apply patch'));
    }
  }
  errs.push(...fieldManagerErrors(fieldManager));
  if (!dryRun.every((v) => v === 'All')) errs.push(fieldError.notSupported('dryRun', dryRun, ['All']));
  if (!['', 'Ignore', 'Strict', 'Warn'].includes(validation)) errs.push(fieldError.notSupported('fieldValidation', validation, ['', 'Ignore', 'Strict', 'Warn']));
  if (errs.length) throw optionsInvalid(kind, errs);
  return { dryRun: dryRun.length > 0, validation: (validation || 'Warn') as FieldValidation, fieldManager };
}

/** ValidateFieldManager: at most 128 bytes, and only what Go's unicode.IsPrint accepts. */
function fieldManagerErrors(manager: string): FieldError[] {
  const errs: FieldError[] = [];
  if (Buffer.byteLength(manager) > FIELD_MANAGER_MAX_LENGTH) errs.push(fieldError.tooLong('fieldManager', FIELD_MANAGER_MAX_LENGTH));
  let at = 0;
  for (const ch of manager) {
    if (!isGoPrint(ch)) {
      const rune = `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
      errs.push(fieldError.invalid('fieldManager', manager, `invalid character ${rune} (at position ${at})`));
    }
    at += Buffer.byteLength(ch);
  }
  return errs;
}

/** unicode.IsPrint: letters, marks, numbers, punctuation, symbols, and the ASCII space only. */
const isGoPrint = (ch: string): boolean => ch === ' ' || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch);
