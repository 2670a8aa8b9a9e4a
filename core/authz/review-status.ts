// Reading a SubjectAccessReview's answer strictly, as Go's decoder reads it into the typed struct:
// a body that states another kind or apiVersion than the one asked (one that states none is the
// one asked: core/api/answer-kind.ts), or a status field of the wrong type (`"allowed":"false"`
// is true to JavaScript), is an error, so the request it was asked for fails (500) instead of
// being allowed, and nothing is cached. Used by the webhook authorizer (authorization.k8s.io, a
// third party's answer) and by the delegated authorizers of the controller manager and the node
// agent (authorization.platform, the API server's answer).
import type { Decision } from './attributes.js';
import { answerKindMismatch } from '../api/answer-kind.js';
import { parseGroupVersion } from '../api/group-version.js';
import { goStructFieldError } from '../api/patch/json-value.js';

export interface ReviewStatus {
  readonly allowed: boolean;
  readonly denied: boolean;
  readonly reason: string;
  readonly evaluationError: string;
}

export class SubjectAccessReviewError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SubjectAccessReviewError';
  }
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Reads the answer to a SubjectAccessReview of `apiVersion` (v1 and v1beta1 share the status). A
 * status field of the wrong JSON type is said as Go's decoder says it into the typed review (`json:
 * cannot unmarshal string into Go struct field SubjectAccessReviewStatus.status.allowed of type
 * bool`); null is absent, as it is to Go.
 */
export function parseReviewStatus(body: unknown, apiVersion: string): ReviewStatus {
  const bad = (why: string) => new SubjectAccessReviewError(`malformed SubjectAccessReview response: ${why}`);
  if (!isObj(body)) throw bad('not a JSON object');
  const gv = parseGroupVersion(apiVersion)!;
  const mismatch = answerKindMismatch(body, { ...gv, kind: 'SubjectAccessReview' });
  if (mismatch) throw bad(mismatch);
  const wrong = (owner: string, path: string, value: unknown, goType: string) =>
    new SubjectAccessReviewError(goStructFieldError(value, owner, path, goType));
  const status = body['status'] ?? {};
  if (!isObj(status)) throw wrong('SubjectAccessReview', 'status', status, `${gv.version}.SubjectAccessReviewStatus`);
  const flag = (k: string): boolean => {
    const v = status[k];
    if (v === undefined || v === null) return false;
    if (typeof v !== 'boolean') throw wrong('SubjectAccessReviewStatus', `status.${k}`, v, 'bool');
    return v;
  };
  const text = (k: string): string => {
    const v = status[k];
    if (v === undefined || v === null) return '';
    if (typeof v !== 'string') throw wrong('SubjectAccessReviewStatus', `status.${k}`, v, 'string');
    return v;
  };
  return { allowed: flag('allowed'), denied: flag('denied'), reason: text('reason'), evaluationError: text('evaluationError') };
}

/** Upstream's webhook authorizer's error for an answer both allowed and denied. */
export const BOTH_ANSWERS = 'webhook subject access review returned both allow and deny response';

/**
 * A delegated authorizer's decision: upstream's webhook authorizer reading the answer. No opinion
 * keeps the reviewer's reason, and the 403 then ends with it as with a denial's.
 */
export function reviewDecision(status: ReviewStatus): Decision | undefined {
  if (status.denied && status.allowed) throw new Error(BOTH_ANSWERS);
  if (status.denied) return { decision: 'deny', reason: status.reason };
  if (status.allowed) return { decision: 'allow', ...(status.reason ? { reason: status.reason } : {}) };
  return status.reason ? { decision: 'noOpinion', reason: status.reason } : undefined;
}
