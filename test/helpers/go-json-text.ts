// An oracle for the JSON bytes Go's encoding/json writes for a decoded value, written apart from
// the code under test: Encoder.Encode's compact line (newline-terminated) or MarshalIndent's text,
// both with the HTML-safe escapes.
const GO_ESCAPES: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };

export const goJsonText = (v: unknown, pretty = false): string =>
  (pretty ? JSON.stringify(v, null, 2) : `${JSON.stringify(v)}\n`).replace(/[<>&\u2028\u2029]/g, (c) => GO_ESCAPES[c]!);

/** json.Marshal's bytes: the Encoder's without its newline. */
export const goJsonMarshalText = (v: unknown): string => goJsonText(v).slice(0, -1);
