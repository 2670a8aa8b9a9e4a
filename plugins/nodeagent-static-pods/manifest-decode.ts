// Bytes of a manifest to the object the legacy scheme's universal decoder would accept, as
// tryDecodeSinglePod reads them: YAML (JSON is YAML) converted to JSON the way sigs.k8s.io/yaml
// does (YAML 1.1 scalars, the first document only, timestamps kept as text), then the type by
// apiVersion and kind with the decoder's own messages. Field types are checked by pod-shape.ts.
import { missingKindText, missingVersionText, notRegisteredText } from '../../core/api/scheme-errors.js';
import { yaml } from '../../core/yaml-module.js';
import { interpretError } from '../../core/api/go-decode-errors.js';
import { GO_YAML } from '../../core/api/go-yaml.js';
import { yamlError } from '../../core/server/body.js';

export class DecodeError extends Error {
  override readonly name = 'DecodeError';
}

/** Go's fmt of the raw JSON in "Object 'Kind' is missing in '...'". */
const raw = (v: unknown): string => JSON.stringify(v) ?? 'null';

/** YAML or JSON text to a JSON value; throws DecodeError with a yaml: message. */
export function yamlToJson(data: string): unknown {
  const docs = yaml().parseAllDocuments(data, GO_YAML);
  const first = Array.isArray(docs) ? docs[0] : docs;
  if (!first) return null;
  const err = first.errors[0];
  // go-yaml's words where plat knows them, as the API server's YAML bodies.
  if (err) throw new DecodeError(yamlError(err, data));
  return JSON.parse(JSON.stringify(first.toJS({ maxAliasCount: 100 }) ?? null)) as unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The object's kind in the core group's v1, as the universal decoder resolves it: missing kind or
 * apiVersion, or a version outside the core group, is a decode error; which v1 kinds are welcome
 * is the caller's business.
 */
export function coreV1Kind(obj: unknown): string {
  const problem = interpretError(obj);
  if (problem) throw new DecodeError(`couldn't get version/kind; json parse error: ${problem}`);
  if (!isObject(obj)) throw new DecodeError(missingKindText(raw(obj)));
  const kind = obj['kind'];
  const apiVersion = obj['apiVersion'];
  if (typeof kind !== 'string' || kind === '') throw new DecodeError(missingKindText(raw(obj)));
  if (typeof apiVersion !== 'string' || apiVersion === '') throw new DecodeError(missingVersionText(raw(obj)));
  if (apiVersion !== 'v1') {
    throw new DecodeError(notRegisteredText(kind, apiVersion, 'pkg/api/legacyscheme/scheme.go:30'));
  }
  return kind;
}
