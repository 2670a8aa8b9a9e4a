// CSR validation (k8s-behaviour §1.1–§1.3): the checks of upstream's
// pkg/apis/certificates/validation, in upstream order, collecting every error. ObjectMeta and
// ValidateObjectMetaUpdate are the generic store's job and are not repeated here.
//
// The "compatibility options" exist so that an object stored under older, looser rules can still
// be updated (e.g. to add a Failed condition) without first having to repair what it already
// carries; they are always computed from the old object, so on create everything is strict.
import crypto from 'node:crypto';
import { appendErrors, fieldError, validateEach, type FieldError } from '../../core/api/field-errors.js';
import { CryptoError, parseWireCsr, validateCertificatePem, verifyCsr } from '../../core/crypto/index.js';
import { validateSignerName } from '../../core/certificates/signer-name.js';
import { hasDuplicateUsages, hasUnknownUsages, isValidUsage, VALID_USAGES } from './usages.js';
import {
  CONDITION_APPROVED, CONDITION_DENIED, CONDITION_FAILED, LEGACY_UNKNOWN_SIGNER,
  type CertificateSigningRequest, type CsrCondition,
} from './types.js';

export interface CsrValidationOptions {
  allowResettingCertificate: boolean;
  allowBothApprovedAndDenied: boolean;
  allowLegacySignerName: boolean;
  allowDuplicateConditionTypes: boolean;
  allowEmptyConditionType: boolean;
  allowArbitraryCertificate: boolean;
  allowUnknownUsages: boolean;
  allowDuplicateUsages: boolean;
  /** Only `/status` may write the certificate. */
  allowSettingCertificate: boolean;
  /** Only `/approval` may add or change Approved and Denied. */
  allowSettingApprovalConditions: boolean;
}

const MIN_EXPIRATION_SECONDS = 600;
const TRUE_ONLY_STATUSES = ['True'];
const ALL_STATUSES = ['False', 'True', 'Unknown'];

// ---- reading the wire object defensively (schema validation may not have run in every caller)

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const conditionsOf = (obj: CertificateSigningRequest): CsrCondition[] =>
  Array.isArray(obj.status?.conditions) ? obj.status.conditions : [];
const usagesOf = (obj: CertificateSigningRequest): string[] =>
  Array.isArray(obj.spec?.usages) ? obj.spec.usages.map(str) : [];

/** base64 wire field -> bytes; undefined when absent (Go's nil slice, rendered `null`). */
function bytesOf(v: unknown): Uint8Array | undefined {
  return typeof v === 'string' ? new Uint8Array(Buffer.from(v, 'base64')) : undefined;
}
const certificateOf = (obj: CertificateSigningRequest | undefined): Uint8Array =>
  bytesOf(obj?.status?.certificate) ?? new Uint8Array(0);

const bytesEqual = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a).equals(Buffer.from(b));

/** validateCertificate: undefined when valid (empty is valid), else upstream's message. */
export function certificateDataError(pemData: Uint8Array): string | undefined {
  const result = validateCertificatePem(pemData);
  return result.ok ? undefined : result.error;
}

// ---- options

export function validationOptions(obj: CertificateSigningRequest, old?: CertificateSigningRequest): CsrValidationOptions {
  const oldConditions = old ? conditionsOf(old) : [];
  const oldTypes = oldConditions.map((c) => str(c.type));
  const oldUsages = old ? usagesOf(old) : [];
  return {
    allowResettingCertificate: false,
    allowBothApprovedAndDenied: oldTypes.includes(CONDITION_APPROVED) && oldTypes.includes(CONDITION_DENIED),
    allowLegacySignerName: old !== undefined && str(old.spec?.signerName) === LEGACY_UNKNOWN_SIGNER,
    allowDuplicateConditionTypes: new Set(oldTypes).size !== oldTypes.length,
    allowEmptyConditionType: oldTypes.includes(''),
    allowArbitraryCertificate: old !== undefined && (
      bytesEqual(certificateOf(obj), certificateOf(old)) || certificateDataError(certificateOf(old)) !== undefined),
    allowUnknownUsages: hasUnknownUsages(oldUsages),
    allowDuplicateUsages: hasDuplicateUsages(oldUsages),
    allowSettingCertificate: false,
    allowSettingApprovalConditions: false,
  };
}

// ---- per-object checks (§1.2 items 2..7)

/**
 * ParseCSR + CheckSignature of spec.request (`wire`, its base64; `request`, its bytes); the error
 * text is the crypto core's (Go's) message.
 */
function requestError(wire: string | undefined, request: Uint8Array | undefined): string | undefined {
  const bytes = request ?? new Uint8Array(0);
  // spec.request is immutable, so every approval and status update checks the same bytes again
  // (as upstream does); the answer is a pure function of them, remembered by their digest.
  const key = sha256(bytes);
  const known = requestChecks.get(key);
  if (known !== undefined) return known.error;
  let error: string | undefined;
  try {
    // Parsed through the shared memo: the admission plugins read the same parse after us.
    verifyCsr(parseWireCsr(wire ?? ''));
  } catch (err) {
    // Anything else is a bug in the crypto core and must surface as a 500, not as a 422.
    if (!(err instanceof CryptoError)) throw err;
    error = err.message;
  }
  if (requestChecks.size >= REQUEST_CHECKS_KEPT) requestChecks.delete(requestChecks.keys().next().value!);
  requestChecks.set(key, { error });
  return error;
}
const REQUEST_CHECKS_KEPT = 4096;
// crypto.hash (Node 20.12 on) digests in one call, without a Hash object per request; same digest.
const sha256: (bytes: Uint8Array) => string = typeof crypto.hash === 'function'
  ? (bytes) => crypto.hash('sha256', bytes, 'base64')
  : (bytes) => crypto.createHash('sha256').update(bytes).digest('base64');
const requestChecks = new Map<string, { readonly error: string | undefined }>();

function validateConditions(conditions: readonly CsrCondition[], opts: CsrValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let hasApproved = false;
  let hasDenied = false;
  validateEach(errs, conditions, (c, i) => {
    const path = `status.conditions[${i}]`;
    const type = str(c?.type);
    const status = str(c?.status);
    if (!opts.allowEmptyConditionType && type === '') errs.push(fieldError.required(`${path}.type`));

    const allowed = type === CONDITION_APPROVED || type === CONDITION_DENIED || type === CONDITION_FAILED
      ? TRUE_ONLY_STATUSES : ALL_STATUSES;
    if (status === '') errs.push(fieldError.required(`${path}.status`));
    else if (!allowed.includes(status)) errs.push(fieldError.notSupported(`${path}.status`, status, allowed));

    if (!opts.allowBothApprovedAndDenied) {
      // The later of the two carries the error, whichever came first.
      if (type === CONDITION_APPROVED) {
        hasApproved = true;
        if (hasDenied) errs.push(fieldError.invalid(`${path}.type`, type, 'Approved and Denied conditions are mutually exclusive'));
      } else if (type === CONDITION_DENIED) {
        hasDenied = true;
        if (hasApproved) errs.push(fieldError.invalid(`${path}.type`, type, 'Approved and Denied conditions are mutually exclusive'));
      }
    }

    if (!opts.allowDuplicateConditionTypes) {
      if (seen.has(type)) errs.push(fieldError.duplicate(`${path}.type`, type));
      seen.add(type);
    }
  });
  return errs;
}

/** validateCertificateSigningRequest: everything but ObjectMeta, errors in upstream order. */
export function validateCsr(obj: CertificateSigningRequest, opts: CsrValidationOptions): FieldError[] {
  const errs: FieldError[] = [];
  const spec = obj.spec ?? ({} as Partial<CertificateSigningRequest['spec']>);

  const request = bytesOf(spec.request);
  const reqErr = requestError(typeof spec.request === 'string' ? spec.request : undefined, request);
  if (reqErr !== undefined) errs.push(fieldError.invalid('spec.request', request ?? null, reqErr));

  const usages = usagesOf(obj);
  if (usages.length === 0) errs.push(fieldError.required('spec.usages'));
  if (!opts.allowUnknownUsages) {
    validateEach(errs, usages, (u, i) => (isValidUsage(u) ? [] : [fieldError.notSupported(`spec.usages[${i}]`, u, VALID_USAGES)]));
  }
  if (!opts.allowDuplicateUsages) {
    const seen = new Set<string>();
    validateEach(errs, usages, (u, i) => {
      if (seen.has(u)) return [fieldError.duplicate(`spec.usages[${i}]`, u)];
      seen.add(u);
      return [];
    });
  }

  const signerName = str(spec.signerName);
  if (!opts.allowLegacySignerName && signerName === LEGACY_UNKNOWN_SIGNER) {
    errs.push(fieldError.invalid('spec.signerName', signerName, 'the legacy signerName is not allowed via this API version'));
  } else {
    errs.push(...validateSignerName('spec.signerName', signerName));
  }

  const exp = spec.expirationSeconds;
  if (typeof exp === 'number' && exp < MIN_EXPIRATION_SECONDS) {
    errs.push(fieldError.invalid('spec.expirationSeconds', exp, 'may not specify a duration less than 600 seconds (10 minutes)'));
  }

  appendErrors(errs, validateConditions(conditionsOf(obj), opts));

  if (!opts.allowArbitraryCertificate) {
    const certErr = certificateDataError(certificateOf(obj));
    // Upstream never echoes certificate bytes back; it names them with a placeholder.
    if (certErr !== undefined) errs.push(fieldError.invalid('status.certificate', '<certificate data>', certErr));
  }
  return errs;
}

// ---- update checks (§1.3)

const ofType = (obj: CertificateSigningRequest, type: string): CsrCondition[] =>
  conditionsOf(obj).filter((c) => str(c?.type) === type);

/** A zero time is absent or null; two set times are equal when they denote the same instant. */
function normalTime(v: unknown): number | null {
  if (typeof v !== 'string' || v === '') return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : Math.floor(t / 1000);
}

/** The condition as Go holds it after decoding: empty strings and omitted fields are the same. */
function normalCondition(c: CsrCondition): Record<string, string | number | null> {
  return {
    type: str(c?.type), status: str(c?.status), reason: str(c?.reason), message: str(c?.message),
    lastUpdateTime: normalTime(c?.lastUpdateTime), lastTransitionTime: normalTime(c?.lastTransitionTime),
  };
}

function semanticallyEqual(a: readonly CsrCondition[], b: readonly CsrCondition[]): boolean {
  return JSON.stringify(a.map(normalCondition)) === JSON.stringify(b.map(normalCondition));
}

/** Shown form of a condition list for the diff: the wire JSON, one field per line. */
function showConditions(conds: readonly CsrCondition[]): string[] {
  return JSON.stringify(conds, null, 2).split('\n');
}

/**
 * A line diff (`-` old, `+` new, two spaces for common lines). Upstream prints go-cmp's diff,
 * which we cannot reproduce byte for byte; this carries the same information.
 */
export function diffLines(a: readonly string[], b: readonly string[]): string {
  const n = a.length;
  const m = b.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) { out.push(`  ${a[i]}`); i++; j++; }
    else if (j < m && (i === n || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) { out.push(`+ ${b[j]}`); j++; }
    else { out.push(`- ${a[i]}`); i++; }
  }
  return out.join('\n');
}

/** validateCertificateSigningRequestUpdate: the whole object again, then the transition rules. */
export function validateCsrUpdate(
  obj: CertificateSigningRequest, old: CertificateSigningRequest, opts: CsrValidationOptions,
): FieldError[] {
  const errs = validateCsr(obj, opts);

  for (const t of [CONDITION_APPROVED, CONDITION_DENIED, CONDITION_FAILED]) {
    if (ofType(obj, t).length < ofType(old, t).length) {
      errs.push(fieldError.forbidden('status.conditions', `updates may not remove a condition of type ${JSON.stringify(t)}`));
    }
  }

  if (!opts.allowSettingApprovalConditions) {
    for (const t of [CONDITION_APPROVED, CONDITION_DENIED]) {
      const before = ofType(old, t);
      const after = ofType(obj, t);
      if (after.length < before.length) continue; // reported above as a removal
      if (after.length > before.length) {
        errs.push(fieldError.forbidden('status.conditions', `updates may not add a condition of type ${JSON.stringify(t)}`));
      } else if (!semanticallyEqual(before, after)) {
        const diff = diffLines(showConditions(before), showConditions(after));
        errs.push(fieldError.forbidden('status.conditions', `updates may not modify a condition of type ${JSON.stringify(t)}\n${diff}`));
      }
    }
  }

  const oldCert = certificateOf(old);
  if (!bytesEqual(certificateOf(obj), oldCert)) {
    if (!opts.allowSettingCertificate) {
      errs.push(fieldError.forbidden('status.certificate', 'updates may not set certificate content'));
    } else if (!opts.allowResettingCertificate && oldCert.length > 0) {
      errs.push(fieldError.forbidden('status.certificate', 'updates may not modify existing certificate content'));
    }
  }
  return errs;
}

// ---- the four entry points (§1.1)

export function validateCsrCreate(obj: CertificateSigningRequest): FieldError[] {
  return validateCsr(obj, validationOptions(obj));
}

export function validateCsrMainUpdate(obj: CertificateSigningRequest, old: CertificateSigningRequest): FieldError[] {
  return validateCsrUpdate(obj, old, validationOptions(obj, old));
}

export function validateCsrStatusUpdate(obj: CertificateSigningRequest, old: CertificateSigningRequest): FieldError[] {
  return validateCsrUpdate(obj, old, { ...validationOptions(obj, old), allowSettingCertificate: true });
}

export function validateCsrApprovalUpdate(obj: CertificateSigningRequest, old: CertificateSigningRequest): FieldError[] {
  return validateCsrUpdate(obj, old, { ...validationOptions(obj, old), allowSettingApprovalConditions: true });
}
