// Protobuf bodies of the authentication reviews (k8s.io/api/authentication/v1 generated.proto):
// client-go's typed clients post a TokenReview there in protobuf (every delegating component's
// --authentication-kubeconfig client) and `kubectl auth whoami` a SelfSubjectReview. The body is
// untrusted: read field by field (eachField: bounded varints, lengths checked), unknown fields
// skipped as gogo-protobuf does, the status (the server's to fill in) ignored.
import type { ApiObject } from '../../core/api/meta.js';
import { eachField, objectMeta, stringField } from '../../core/api/protobuf.js';

/** TokenReviewSpec: token 1, audiences 2. An empty token is left out, as the JSON form omits it. */
function tokenReviewSpec(buf: Buffer | undefined): Record<string, unknown> {
  const spec: Record<string, unknown> = {};
  const audiences: string[] = [];
  for (const f of eachField(buf)) {
    if (f.no === 1) { const token = stringField(f); if (token) spec['token'] = token; else delete spec['token']; }
    else if (f.no === 2) audiences.push(stringField(f));
  }
  if (audiences.length) spec['audiences'] = audiences;
  return spec;
}

/** A TokenReview: metadata 1, spec 2, status 3 (ignored). */
export function decodeTokenReview(raw: Buffer): ApiObject {
  const obj: ApiObject = { metadata: {} };
  for (const f of eachField(raw)) {
    if (f.no === 1) obj.metadata = objectMeta(f.bytes!);
    else if (f.no === 2) obj['spec'] = tokenReviewSpec(f.bytes);
  }
  return obj;
}

/** A SelfSubjectReview: metadata 1; status 2 is the server's. */
export function decodeSelfSubjectReview(raw: Buffer): ApiObject {
  const obj: ApiObject = { metadata: {} };
  for (const f of eachField(raw)) if (f.no === 1) obj.metadata = objectMeta(f.bytes!);
  return obj;
}
