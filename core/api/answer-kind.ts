// The apiVersion and kind of an answer decoded into a typed object (rest.Result.Into), as
// apimachinery's JSON serializer reads them: what the body leaves out is taken from the target
// type (gvkWithDefaults), so an answer without kind or apiVersion is that type; what it states must
// be that type, or decoding fails (another kind or version is no kind of the scheme, or has no
// conversion into the target). A webhook answering with a bare {"status": ...}, as upstream's own
// test servers do, is therefore understood.
import { parseGroupVersion } from './group-version.js';

export interface GroupVersionKind { readonly group: string; readonly version: string; readonly kind: string }

const show = (v: unknown): string => JSON.stringify(v ?? null);

/** Why `body` is not `want`, or undefined when it is (after defaulting). */
export function answerKindMismatch(body: Readonly<Record<string, unknown>>, want: GroupVersionKind): string | undefined {
  const apiVersion = body['apiVersion'] ?? '';
  const kind = body['kind'] ?? '';
  const expectedVersion = want.group ? `${want.group}/${want.version}` : want.version;
  // SimpleMetaFactory.Interpret reads both into strings: another JSON type is a decode error.
  if (typeof kind !== 'string') return `kind is ${show(kind)}, expected "${want.kind}"`;
  if (typeof apiVersion !== 'string') return `apiVersion is ${show(apiVersion)}, expected "${expectedVersion}"`;
  const gv = parseGroupVersion(apiVersion);
  if (!gv) return `apiVersion is ${show(apiVersion)}, expected "${expectedVersion}"`;
  let { group, version } = gv;
  if (version === '' && group === '') ({ group, version } = want);
  if (version === '' && group === want.group) version = want.version;
  if ((kind || want.kind) !== want.kind) return `kind is ${show(kind)}, expected "${want.kind}"`;
  if (group !== want.group || version !== want.version) return `apiVersion is ${show(apiVersion)}, expected "${expectedVersion}"`;
  return undefined;
}

/**
 * A Status answer (apiVersion v1) where a webhook's client decodes `want` (Go package `want.version`):
 * the webhook's codec (LegacyCodec) converts whatever it decoded into the target and apimachinery
 * has no conversion from a Status, so decoding fails in the converter's words before
 * rest.Result.Into could read the Status as an error, whatever its `status` says.
 */
export function statusAnswerConversion(body: Readonly<Record<string, unknown>>, want: GroupVersionKind): string | undefined {
  return body['kind'] === 'Status' && body['apiVersion'] === 'v1'
    ? `converting (v1.Status) to (${want.version}.${want.kind}): unknown conversion`
    : undefined;
}
