// The three strategies of the CSR resource (k8s-behaviour §2.2–§2.4). Each endpoint silently
// resets what it may not change, so validation only ever sees changes the endpoint owns: the main
// resource changes metadata only, `/status` owns the certificate and non-approval conditions,
// `/approval` owns the conditions. Generic metadata restoration (uid, creationTimestamp,
// generation) is the store's job.
import { rfc3339, deepClone } from '../../core/api/meta.js';
import type { Strategy, StrategyContext } from '../../core/registry/strategy.js';
import {
  CONDITION_APPROVED, CONDITION_DENIED, type CertificateSigningRequest, type CsrCondition, type CsrStatus,
} from './types.js';
import {
  validateCsrApprovalUpdate, validateCsrCreate, validateCsrMainUpdate, validateCsrStatusUpdate,
} from './validation.js';

type Csr = CertificateSigningRequest;

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

function prepareForCreate(ctx: StrategyContext, obj: Csr): void {
  // A missing spec is left to validation to report field by field, as upstream does.
  if (!isObject(obj.spec)) obj.spec = {} as Csr['spec'];
  const spec = obj.spec;
  // Whatever the client wrote here is ignored: these fields say who asked, and only the server knows.
  delete spec.username;
  delete spec.uid;
  delete spec.groups;
  delete spec.extra;
  const user = ctx.user;
  spec.username = user.name;
  if (user.uid) spec.uid = user.uid;
  // The authentication layer has already appended system:authenticated where it belongs.
  if (user.groups.length > 0) spec.groups = [...user.groups];
  if (user.extra && Object.keys(user.extra).length > 0) {
    spec.extra = Object.fromEntries(Object.entries(user.extra).map(([k, v]) => [k, [...v]]));
  }
  // No pre-approved or pre-issued requests: status always starts empty.
  obj.status = {};
}

const isZeroTime = (v: unknown): boolean => typeof v !== 'string' || v === '';

/** populateConditionTimestamps (§2.4). */
function populateConditionTimestamps(obj: Csr, old: Csr, now: Date): void {
  const stamp = rfc3339(now);
  const oldConditions = old.status?.conditions ?? [];
  for (const c of obj.status?.conditions ?? []) {
    if (!isObject(c)) continue; // left for validation to report
    if (isZeroTime(c.lastUpdateTime)) c.lastUpdateTime = stamp;
    if (isZeroTime(c.lastTransitionTime)) {
      // Keep the moment the condition first reached this status; only a real transition is "now".
      const prior = oldConditions.find((o) => isObject(o) && o.type === c.type && o.status === c.status && !isZeroTime(o.lastTransitionTime));
      c.lastTransitionTime = prior ? prior.lastTransitionTime! : stamp;
    }
  }
}

/**
 * preserveConditionInstances: the `/status` writer (a signer) may not touch Approved/Denied, but
 * it usually echoes them back reformatted; restoring them when the count is unchanged avoids a
 * spurious "modify" error, while an added or removed instance is left for validation to reject.
 */
function preserveConditionInstances(obj: Csr, old: Csr, type: string): void {
  const oldConditions = old.status?.conditions ?? [];
  const newConditions = obj.status?.conditions ?? [];
  const oldIdx = oldConditions.flatMap((c, i) => (c?.type === type ? [i] : []));
  const newIdx = newConditions.flatMap((c, i) => (c?.type === type ? [i] : []));
  if (oldIdx.length !== newIdx.length) return;
  newIdx.forEach((ni, k) => { newConditions[ni] = deepClone(oldConditions[oldIdx[k]!]!); });
}

/** A condition's reason and message are `omitempty` strings: Go never serves them empty. */
function tidyCondition(c: CsrCondition): CsrCondition {
  if (!isObject(c) || (c.reason !== '' && c.message !== '')) return c;
  const out = { ...c };
  if (out.reason === '') delete out.reason;
  if (out.message === '') delete out.message;
  return out;
}

/** Go omits empty slices, byte fields and strings (`omitempty`); stored JSON should look the same. */
function tidyStatus(status: CsrStatus | undefined): CsrStatus {
  const out: CsrStatus = { ...(status ?? {}) };
  if (Array.isArray(out.conditions)) out.conditions = out.conditions.map(tidyCondition);
  if (Array.isArray(out.conditions) && out.conditions.length === 0) delete out.conditions;
  if (out.certificate === '') delete out.certificate;
  return out;
}

const asStatus = (v: unknown): CsrStatus | undefined => (isObject(v) ? v as CsrStatus : undefined);

export const csrStrategy: Strategy<Csr> = {
  prepareForCreate,
  validate: (_ctx, obj) => validateCsrCreate(obj),
  prepareForUpdate(_ctx, obj, old) {
    obj.spec = deepClone(old.spec);
    obj.status = deepClone(tidyStatus(old.status));
  },
  validateUpdate: (_ctx, obj, old) => validateCsrMainUpdate(obj, old),
  resetFields: [['status']],
};

// Subresources never create; `validate` is only there because the interface requires it.
export const csrStatusStrategy: Strategy<Csr> = {
  validate: (_ctx, obj) => validateCsrCreate(obj),
  prepareForUpdate(ctx, obj, old) {
    obj.spec = deepClone(old.spec);
    obj.status = tidyStatus(asStatus(obj.status));
    preserveConditionInstances(obj, old, CONDITION_APPROVED);
    preserveConditionInstances(obj, old, CONDITION_DENIED);
    populateConditionTimestamps(obj, old, ctx.now);
  },
  validateUpdate: (_ctx, obj, old) => validateCsrStatusUpdate(obj, old),
  resetFields: [['spec']],
};

export const csrApprovalStrategy: Strategy<Csr> = {
  validate: (_ctx, obj) => validateCsrCreate(obj),
  prepareForUpdate(ctx, obj, old) {
    const requested = asStatus(obj.status)?.conditions;
    const conditions: CsrCondition[] | undefined = Array.isArray(requested) ? requested : undefined;
    obj.status = { conditions: conditions ?? [] };
    populateConditionTimestamps(obj, old, ctx.now);
    obj.spec = deepClone(old.spec);
    // Everything in status but the conditions (notably the certificate) stays as it was.
    const status: CsrStatus = deepClone(old.status ?? {});
    if (conditions) status.conditions = obj.status.conditions!;
    else delete status.conditions;
    obj.status = tidyStatus(status);
  },
  validateUpdate: (_ctx, obj, old) => validateCsrApprovalUpdate(obj, old),
  resetFields: [['spec'], ['status', 'certificate']],
};
