// go-yaml v2's words and line for the syntax errors people actually make (an unterminated quote or
// flow collection, a tab as indentation, a key whose `:` was mistyped), where the yaml package words the same mistake its own
// way. go-yaml's parser.fail() reports a scanner error at the problem's line (1-based) and a parser
// error at the problem's 0-based line, and drops the line when that number is 0. Anything not
// recognized here keeps the yaml package's words in go-yaml's `yaml: line N: ...` shape.
import type { CST } from 'yaml';
import { yaml } from '../yaml-module.js';

export interface YamlPackageError { code?: string; message: string; pos?: [number, number]; linePos?: { line: number }[] }

/**
 * The 0-based line of each offset of `text`, after one pass over it: a scan may ask for many
 * offsets, and rescanning from the start each time made a request body's error quadratic in its size.
 */
function lineCounter(text: string): (offset: number) => number {
  const breaks: number[] = [];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) breaks.push(i);
  return (offset) => {
    let lo = 0;
    let hi = breaks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (breaks[mid]! < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

export const lineOf = (text: string, offset: number): number => lineCounter(text)(offset);

const shape = (line: number, words: string): string => (line > 0 ? `yaml: line ${line}: ${words}` : `yaml: ${words}`);
/** A scanner error on 0-based line `line0`; on line 0 the context mark (there on line 0 too) is printed, which is nothing. */
export const scannerError = (line0: number, words: string): string => shape(line0 > 0 ? line0 + 1 : 0, words);

/** yaml_parser_fetch_stream_end: the stream end sits at the start of the line after the last character. */
const streamEndLine = (text: string): number => lineOf(text, text.length) + (text.length > 0 && !text.endsWith('\n') ? 1 : 0);

/** A quoted scalar with no closing quote: the scanner runs into a document marker or the end of the stream. */
function unterminatedQuote(text: string): string {
  const at = unclosedQuoteStart(text) ?? text.length;
  const marker = /\n(?:---|\.\.\.)(?:[ \t\r\n]|$)/.exec(text.slice(at));
  if (marker) return scannerError(lineOf(text, at + marker.index + 1), 'found unexpected document indicator');
  // At the end of the stream the scanner's mark is past the last line break.
  return scannerError(lineOf(text, text.length), 'found unexpected end of stream');
}

/**
 * A tab where indentation belongs. After a plain scalar the scanner is still looking for the
 * scalar's continuation (scan_plain_scalar's check); anywhere else the tab starts the next token.
 */
function tabIndent(text: string, at: number): string {
  const line = lineOf(text, at);
  const before = text.slice(0, text.lastIndexOf('\n', at - 1) + 1).split('\n').slice(0, -1);
  const previous = before.reverse().find((l) => l.trim() !== '' && !l.trimStart().startsWith('#'))?.trimEnd() ?? '';
  const endsPlainScalar = previous !== '' && !/(?:^|\s)#/.test(previous) && !/(?:[:\-?|>[\]{},"']|^\s*-)$/.test(previous);
  return scannerError(line, endsPlainScalar ? 'found a tab character that violates indentation' : 'found character that cannot start any token');
}

/** The yaml package lexer's tokens with their source offsets (its own markers take no source). */
export function* lexed(text: string): Generator<{ tok: string; type: ReturnType<typeof CST.tokenType>; offset: number }> {
  let offset = 0;
  for (const tok of new (yaml().Lexer)().lex(text)) {
    yield { tok, type: yaml().CST.tokenType(tok), offset };
    if (tok !== '\x02' && tok !== '\x18' && tok !== '\x1f') offset += tok.length;
  }
}

/** The outermost flow collection the yaml package's lexer found unclosed. */
function unclosedFlowStart(text: string): number | undefined {
  const open: number[] = [];
  for (const { type, offset } of lexed(text)) {
    if (type === 'flow-seq-start' || type === 'flow-map-start') open.push(offset);
    else if (type === 'flow-seq-end' || type === 'flow-map-end') open.pop();
    else if (type === 'flow-error-end') return open[0];
  }
  return open[0];
}

/** Where the quoted scalar that never closes begins. */
function unclosedQuoteStart(text: string): number | undefined {
  for (const { tok, type, offset } of lexed(text)) {
    if ((type === 'double-quoted-scalar' || type === 'single-quoted-scalar') && (tok.length < 2 || !tok.endsWith(tok[0]!))) return offset;
  }
  return undefined;
}

/**
 * An unclosed flow collection as go-yaml parses it: indentation means nothing inside one, so it
 * runs on to the end of the stream, or to a value indicator after a key that spans lines (a
 * simple key may not, so the `:` arrives where a `,` or the closer was expected).
 */
function unclosedFlow(text: string, start: number): string | undefined {
  const stack: string[] = [];
  let last: 'open' | 'comma' | 'entry' = 'open';
  let entryLine = -1;
  const lineAt = lineCounter(text);
  const expected = () => `did not find expected ',' or '${stack[stack.length - 1] === '[' ? ']' : '}'}'`;
  for (let i = start; i < text.length; i++) {
    const ch = text[i]!;
    const prev = i > 0 ? text[i - 1]! : '\n';
    if (ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n') continue;
    if (ch === '#' && /\s/.test(prev)) { const nl = text.indexOf('\n', i); if (nl < 0) break; i = nl; continue; }
    if (ch === '[' || ch === '{') { stack.push(ch); last = 'open'; continue; }
    if (ch === ']' || ch === '}') {
      if (stack.pop() !== (ch === ']' ? '[' : '{')) return undefined;
      if (stack.length === 0) return undefined;
      last = 'entry';
      continue;
    }
    if (ch === ',') { last = 'comma'; continue; }
    if (ch === ':' && /[\s,[\]{}]/.test(text[i + 1] ?? ' ')) {
      if (last === 'entry' && entryLine !== lineAt(i)) return shape(lineAt(i), expected());
      last = 'comma';
      continue;
    }
    if (ch === '"' || ch === '\'') {
      const end = text.indexOf(ch, i + 1);
      if (end < 0) return undefined;
      if (last !== 'entry') entryLine = lineAt(i);
      last = 'entry';
      i = end;
      continue;
    }
    if (last !== 'entry') entryLine = lineAt(i);
    last = 'entry';
  }
  if (stack.length === 0) return undefined;
  return shape(streamEndLine(text), last === 'entry' ? expected() : 'did not find expected node content');
}

/** Whether `at` lies inside a flow collection, where go-yaml never requires a simple key. */
function inFlow(text: string, at: number): boolean {
  let depth = 0;
  for (const { type, offset } of lexed(text)) {
    if (offset >= at) break;
    if (type === 'flow-seq-start' || type === 'flow-map-start') depth++;
    else if ((type === 'flow-seq-end' || type === 'flow-map-end') && depth > 0) depth--;
  }
  return depth > 0;
}

/**
 * A key that runs onto the next line before its `:` (`metadata;` for `metadata:`). go-yaml's
 * scanner requires the simple key only where it starts at the column of a block mapping already
 * open (a sibling key before it): then the key going stale is "could not find expected ':'",
 * reported on the line of the `:` where the scanner stands. A mapping's first key is not
 * required and fails differently, so it is left to the yaml package's words.
 */
function multilineKey(text: string, at: number, colon: number): string | undefined {
  if (text[colon] !== ':' || inFlow(text, at)) return undefined;
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  if (text.slice(lineStart, at).trim() !== '') return undefined;
  const column = at - lineStart;
  for (let end = lineStart - 1; end > 0;) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    const line = text.slice(start, end);
    const content = line.trim();
    const indent = line.length - line.trimStart().length;
    end = start - 1;
    if (content === '' || content.startsWith('#') || indent > column) continue;
    const siblingKey = indent === column && /^[^-?#[{|>]/.test(content) && /:(?:[ \t]|$)/.test(content);
    return siblingKey ? scannerError(lineOf(text, colon), "could not find expected ':'") : undefined;
  }
  return undefined;
}

/** go-yaml's text for the yaml package's error `e` on `text`, or undefined when not one of the mapped cases. */
export function goYamlSyntaxError(text: string, e: YamlPackageError): string | undefined {
  const at = e.pos?.[0];
  if (at === undefined) return undefined;
  if (e.code === 'MISSING_CHAR' && /^Missing closing ["']quote/.test(e.message)) return unterminatedQuote(text);
  if (e.code === 'TAB_AS_INDENT') return tabIndent(text, at);
  if (e.code === 'MULTILINE_IMPLICIT_KEY' && e.pos?.[1] !== undefined) return multilineKey(text, at, e.pos[1]);
  if (e.code === 'BAD_INDENT' && /^Flow (?:sequence|map) in block collection/.test(e.message)) {
    const start = unclosedFlowStart(text);
    return start === undefined ? undefined : unclosedFlow(text, start);
  }
  return undefined;
}
