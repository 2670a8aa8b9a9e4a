// The AdmissionReview sent to a webhook and the checks on its answer
// (webhook/request/admissionreview.go). The wire keeps upstream's `admission.k8s.io` group so
// that existing webhook servers and their libraries decode it unchanged.
import { parseGroupVersion } from '../../core/api/group-version.js';
import { randomUUID } from 'node:crypto';
import type { AdmissionRequest } from '../../core/admission/request.js';
import type { ApiObject } from '../../core/api/meta.js';
import { base64ErrorIndex } from '../../core/api/base64-error.js';

export const REVIEW_GROUP = 'admission.k8s.io';

export interface ReviewRequest {
  readonly uid: string;
  readonly apiVersion: string;
  readonly body: Record<string, unknown>;
}

/** The object as the webhook sees it: typed, apiVersion and kind set. */
export function versioned(req: AdmissionRequest, obj: ApiObject | undefined): ApiObject | null {
  if (!obj) return null;
  return { ...obj, apiVersion: req.group ? `${req.group}/${req.version}` : req.version, kind: req.kind };
}

/** The AdmissionRequest fields shared by the review and by CEL's `request` variable. */
export function requestAttributes(req: AdmissionRequest): Record<string, unknown> {
  const gvk = { group: req.group, version: req.version, kind: req.kind };
  const gvr = { group: req.group, version: req.version, resource: req.resource };
  const extra: Record<string, string[]> = {};
  for (const [k, v] of Object.entries(req.user.extra ?? {})) extra[k] = [...v];
  return {
    kind: gvk, resource: gvr, subResource: req.subresource,
    requestKind: gvk, requestResource: gvr, requestSubResource: req.subresource,
    name: req.name, namespace: req.namespace, operation: req.operation,
    userInfo: { username: req.user.name, uid: req.user.uid ?? '', groups: [...req.user.groups], extra },
    dryRun: req.dryRun,
  };
}

/** The review for the first of the webhook's versions this server speaks (validation ensures one). */
export function createReview(req: AdmissionRequest, versions: readonly string[]): ReviewRequest | undefined {
  const version = versions.find((v) => v === 'v1' || v === 'v1beta1');
  if (!version) return undefined;
  const uid = randomUUID();
  const apiVersion = `${REVIEW_GROUP}/${version}`;
  const request: Record<string, unknown> = { uid, ...requestAttributes(req) };
  // Go omits empty strings here (omitempty) but always sends object and oldObject (null when absent).
  for (const k of ['subResource', 'requestSubResource', 'name', 'namespace']) if (request[k] === '') delete request[k];
  const user = request['userInfo'] as Record<string, unknown>;
  if (user['uid'] === '') delete user['uid'];
  if (Object.keys(user['extra'] as object).length === 0) delete user['extra'];
  request['object'] = versioned(req, req.object);
  request['oldObject'] = versioned(req, req.oldObject);
  request['options'] = req.options;
  return { uid, apiVersion, body: { kind: 'AdmissionReview', apiVersion, request } };
}

export interface ReviewResponse {
  readonly allowed: boolean;
  readonly result: unknown;
  readonly patch: string | undefined;
  readonly patchType: string | undefined;
  readonly warnings: readonly string[];
  /** response.auditAnnotations (map[string]string). */
  readonly auditAnnotations: Readonly<Record<string, string>>;
}

/** VerifyAdmissionResponse's complaints (`received invalid webhook response: ...`). */
export class InvalidResponse extends Error {}
/** What Go's decoder refuses before any check runs (`failed to call webhook: ...`). */
export class UndecodableResponse extends Error {}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** schema.GroupVersionKind's String() of an object's apiVersion and kind: `group/version, Kind=kind`. */
function gvkString(apiVersion: string, kind: string): string {
  // readAnswer has refused an apiVersion that does not parse.
  const { group, version } = parseGroupVersion(apiVersion) ?? { group: '', version: apiVersion };
  return `${group}/${version}, Kind=${kind}`;
}

/** response.auditAnnotations as Go decodes it into a map[string]string (null: none). */
function stringMap(v: unknown): Record<string, string> {
  if (v === undefined || v === null) return {};
  const field = 'Go struct field AdmissionResponse.response.auditAnnotations';
  if (!isObj(v)) throw new UndecodableResponse(`json: cannot unmarshal ${Array.isArray(v) ? 'array' : typeof v} into ${field} of type map[string]string`);
  for (const x of Object.values(v)) {
    if (typeof x !== 'string') throw new UndecodableResponse(`json: cannot unmarshal ${x === null ? 'null' : Array.isArray(x) ? 'array' : typeof x} into ${field} of type string`);
  }
  return v as Record<string, string>;
}

/** VerifyAdmissionResponse: throws InvalidResponse with upstream's reason. */
export function verifyResponse(review: ReviewRequest, body: unknown, mutating: boolean): ReviewResponse {
  if (!isObj(body)) throw new InvalidResponse('webhook response was absent');
  const v1 = review.apiVersion === `${REVIEW_GROUP}/v1`;
  const response = body['response'];
  if (v1) {
    // Decoded into the typed review, a missing kind or apiVersion is no decode error (the target
    // type supplies them to the decoder) but stays empty in the object, which the check then sees.
    const gv = typeof body['apiVersion'] === 'string' ? body['apiVersion'] : '';
    const kind = typeof body['kind'] === 'string' ? body['kind'] : '';
    if (!isObj(response)) throw new InvalidResponse('webhook response was absent');
    const uid = typeof response['uid'] === 'string' ? response['uid'] : '';
    if (uid !== review.uid) throw new InvalidResponse(`expected response.uid=${JSON.stringify(review.uid)}, got ${JSON.stringify(uid)}`);
    if (gv !== review.apiVersion || kind !== 'AdmissionReview') {
      throw new InvalidResponse(`expected webhook response of ${gvkString(review.apiVersion, 'AdmissionReview')}, got ${gvkString(gv, kind)}`);
    }
  } else if (!isObj(response)) throw new InvalidResponse('webhook response was absent');
  const r = response as Obj;
  if (r['allowed'] !== undefined && typeof r['allowed'] !== 'boolean') {
    throw new UndecodableResponse(`json: cannot unmarshal ${typeof r['allowed']} into Go struct field AdmissionResponse.response.allowed of type bool`);
  }
  if (r['patch'] !== undefined && r['patch'] !== null) {
    if (typeof r['patch'] !== 'string') throw new UndecodableResponse(`json: cannot unmarshal ${typeof r['patch']} into Go struct field AdmissionResponse.response.patch of type []uint8`);
    const bad = base64ErrorIndex(r['patch']);
    if (bad >= 0) throw new UndecodableResponse(`illegal base64 data at input byte ${bad}`);
  }
  const hasPatch = typeof r['patch'] === 'string' && r['patch'] !== '';
  const patchType = r['patchType'];
  let patch: string | undefined;
  let type: string | undefined;
  if (v1) {
    if (mutating) {
      if (hasPatch && (patchType === undefined || patchType === null)) throw new InvalidResponse('webhook returned response.patch but not response.patchType');
      if (!hasPatch && patchType !== undefined && patchType !== null) throw new InvalidResponse('webhook returned response.patchType but not response.patch');
      if (patchType !== undefined && patchType !== null) {
        if (typeof patchType !== 'string' || patchType === '') throw new InvalidResponse(`webhook returned invalid response.patchType of ${JSON.stringify(patchType)}`);
        type = patchType;
      }
      if (hasPatch) patch = r['patch'] as string;
    } else {
      if (hasPatch) throw new InvalidResponse('validating webhook may not return response.patch');
      if (patchType !== undefined && patchType !== null) throw new InvalidResponse('validating webhook may not return response.patchType');
    }
  } else if (mutating && hasPatch) {
    // v1beta1 never checked patchType: a patch is a JSON patch.
    patch = r['patch'] as string;
    type = 'JSONPatch';
  }
  const auditAnnotations = stringMap(r['auditAnnotations']);
  const warnings = Array.isArray(r['warnings']) ? (r['warnings'] as unknown[]).filter((w): w is string => typeof w === 'string') : [];
  return { allowed: r['allowed'] === true, result: r['status'], patch, patchType: type, warnings, auditAnnotations };
}
