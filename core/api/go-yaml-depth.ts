// How deep a YAML document may nest. go-yaml v2's scanner refuses a flow level or an indentation
// stack deeper than 10,000 (max_flow_level, max_indents: `exceeded max depth of 10000`), and the
// JSON the serializer converts the document to is then read by encoding/json, which refuses
// nesting deeper than 10,000 too. The yaml package has no limit of its own: it recurses until the
// stack runs out, which on the event loop is ~1,000 levels and gave a JavaScript error text.
import { MAX_NESTING_DEPTH } from './go-json-syntax.js';
import { lexed, lineOf, scannerError } from './go-yaml-errors.js';

export const GO_YAML_MAX_DEPTH = 10000;

/**
 * How many bytes of `body` could open a level (`[`, `{`, `-`, `?`, `:`), counting no further than
 * `enough`: a document with no more of them than a limit cannot nest deeper than it.
 */
export function nestingBytes(body: Uint8Array, enough = Infinity): number {
  let n = 0;
  for (let i = 0; i < body.length && n <= enough; i++) {
    const c = body[i];
    if (c === 0x5b || c === 0x7b || c === 0x2d || c === 0x3f || c === 0x3a) n++;
  }
  return n;
}

/**
 * go-yaml's scanner error when `text` nests deeper than it allows, else undefined. The flow level
 * follows the yaml package's lexer (so brackets in quotes, comments and block scalars do not
 * count); the indentation stack is rolled and unrolled by the token columns as go-yaml's
 * roll_indent and unroll_indent do, a `:` rolling at the column of its simple key.
 */
export function yamlDepthError(text: string): string | undefined {
  let flow = 0;
  let indent = -1;
  let depth = 0;
  const indents: number[] = [];
  let lineStart = 0;
  let keyColumn: number | undefined;
  let blockScalar = false;
  const unroll = (column: number): void => {
    if (flow > 0) return;
    while (indent > column) { indent = indents.pop()!; depth--; }
  };
  const roll = (column: number): boolean => {
    if (flow > 0 || indent >= column) return false;
    indents.push(indent);
    indent = column;
    return ++depth > GO_YAML_MAX_DEPTH;
  };
  const refused = (offset: number): string => scannerError(lineOf(text, offset), `exceeded max depth of ${GO_YAML_MAX_DEPTH}`);
  for (const { tok, type, offset } of lexed(text)) {
    const column = offset - lineStart;
    const breakAt = tok.lastIndexOf('\n');
    if (breakAt >= 0) lineStart = offset + breakAt + 1;
    switch (type) {
      case 'space': case 'comment': case 'byte-order-mark': case 'doc-mode': case 'flow-error-end': case 'comma':
        continue;
      case 'newline':
        keyColumn = undefined;
        continue;
      case 'doc-start': case 'doc-end': case 'directive-line':
        unroll(-1);
        keyColumn = undefined;
        continue;
      default:
    }
    // A block scalar's text follows its header: no key, and no token whose column counts.
    if (blockScalar && type === 'scalar') { blockScalar = false; continue; }
    unroll(column);
    switch (type) {
      case 'seq-item-ind': case 'explicit-key-ind':
        if (roll(column)) return refused(offset);
        keyColumn = undefined;
        break;
      case 'map-value-ind':
        if (roll(keyColumn ?? column)) return refused(offset);
        keyColumn = undefined;
        break;
      case 'flow-seq-start': case 'flow-map-start':
        if (flow === 0) keyColumn ??= column;
        if (++flow > GO_YAML_MAX_DEPTH) return refused(offset);
        break;
      case 'flow-seq-end': case 'flow-map-end':
        if (flow > 0) flow--;
        break;
      case 'block-scalar-header':
        blockScalar = true;
        keyColumn = undefined;
        break;
      default:
        if (flow === 0) keyColumn ??= column;
    }
  }
  return undefined;
}

/**
 * encoding/json's error for the JSON a decoded document becomes, when it nests deeper than
 * encoding/json reads: the first container too deep, objects' keys in the sorted order in which
 * json.Marshal writes a map. The walk is iterative, so any depth the parser gave is safe here.
 */
export function jsonDepthError(value: unknown): string | undefined {
  const stack: { v: unknown; depth: number }[] = [{ v: value, depth: 1 }];
  while (stack.length) {
    const { v, depth } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > MAX_NESTING_DEPTH) return `invalid character '${Array.isArray(v) ? '[' : '{'}' exceeded max depth`;
    const children = Array.isArray(v) ? v : Object.keys(v).sort().map((k) => (v as Record<string, unknown>)[k]);
    for (let i = children.length - 1; i >= 0; i--) stack.push({ v: children[i], depth: depth + 1 });
  }
  return undefined;
}
