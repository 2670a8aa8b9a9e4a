// What apimachinery's decoders say before they know the object's type: the version/kind sniffing
// (runtime/serializer/json SimpleMetaFactory.Interpret, a json.Unmarshal into a two-field struct)
// and the handlers' summary of a body they could not recognise (summarizeData).
import { goJsonType, isJsonObject } from './patch/json-value.js';

/** The Go type Interpret unmarshals into, as reflect prints it. */
export const FIND_KIND_TYPE = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

/**
 * Interpret's error for a parsed JSON value, or undefined when it finds a version and kind (maybe
 * empty: null and missing fields are left zero). encoding/json matches field names case-insensitively,
 * and reports the first type mismatch in document order.
 */
export function interpretError(value: unknown): string | undefined {
  if (value === null) return undefined;
  if (!isJsonObject(value)) return `json: cannot unmarshal ${goJsonType(value)} into Go value of type ${FIND_KIND_TYPE}`;
  for (const [key, v] of Object.entries(value)) {
    const lower = key.toLowerCase();
    const field = lower === 'apiversion' ? 'apiVersion' : lower === 'kind' ? 'kind' : undefined;
    if (field && v !== null && typeof v !== 'string') return `json: cannot unmarshal ${goJsonType(v)} into Go struct field .${field} of type string`;
  }
  return undefined;
}

/** summarizeData(body, 30): an object's first 30 bytes as text, anything else's in hex. */
export function summarizeData(data: Uint8Array, maxLength = 30): string {
  if (data.length === 0) return '<empty>';
  const head = Buffer.from(data.subarray(0, maxLength));
  const more = data.length > maxLength ? ' ...' : '';
  return (data[0] === 0x7b ? head.toString('utf8') : head.toString('hex')) + more;
}

/** transformDecodeError's words when no kind could be read from the body. */
export function unrecognizedMessage(kind: string, cause: string, body: Uint8Array): string {
  return `the object provided is unrecognized (must be of type ${kind}): ${cause} (${summarizeData(body)})`;
}
