// PEM (RFC 7468) with the exact acceptance rules of Go's encoding/pem.Decode, because Kubernetes
// validation is defined by what that decoder finds: leading junk is skipped, `Key: value` lines right
// after BEGIN are headers, a block whose END line or base64 is broken is skipped (not an error) and
// the search goes on after its BEGIN line.
import { Buffer } from 'node:buffer';

export interface PemBlock {
  label: string;
  headers: Record<string, string>;
  der: Uint8Array;
}

const BEGIN = Buffer.from('\n-----BEGIN ');
const END = Buffer.from('\n-----END ');
const DASHES = Buffer.from('-----');
const NL = 0x0a;
const CR = 0x0d;

function toBuffer(input: Uint8Array | string): Buffer {
  if (typeof input === 'string') return Buffer.from(input, 'utf8');
  if (input instanceof Uint8Array) return Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  throw new TypeError('PEM input must be a string or Uint8Array');
}

/** Go's getLine: the first LF- or CRLF-terminated line without trailing spaces/tabs, and the rest. */
function getLine(data: Buffer): [Buffer, Buffer] {
  let i = data.indexOf(NL);
  let j: number;
  if (i < 0) {
    i = data.length;
    j = i;
  } else {
    j = i + 1;
    if (i > 0 && data[i - 1] === CR) i--;
  }
  let e = i;
  while (e > 0 && (data[e - 1] === 0x20 || data[e - 1] === 0x09)) e--;
  return [data.subarray(0, e), data.subarray(j)];
}

// Go's unicode.IsSpace set (JavaScript's \s differs: it has U+FEFF and lacks U+0085).
const GO_SPACE = '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const TRIM = new RegExp(`^${GO_SPACE}+|${GO_SPACE}+$`, 'g');

function trimSpace(b: Buffer): string {
  return b.toString('utf8').replace(TRIM, '');
}

const BASE64_BODY = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The bytes a body may hold at all: the alphabet, '=' and the ignored whitespace. */
const BODY_BYTES = new Uint8Array(256);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/= \t\r\n') BODY_BYTES[c.charCodeAt(0)] = 1;

/**
 * Go's base64.StdEncoding: CR and LF ignored anywhere, padding required, non-zero pad bits tolerated.
 * A body that runs into another BEGIN line is refused at its first '-': the bodies of candidates
 * that fail overlap, and reading each to its end would make the search quadratic.
 */
function decodeBase64(body: Buffer): Uint8Array | undefined {
  for (let i = 0; i < body.length; i++) if (BODY_BYTES[body[i]!] === 0) return undefined;
  const s = body.toString('latin1').replace(/[ \t\r\n]/g, '');
  if (!BASE64_BODY.test(s)) return undefined;
  const out = Buffer.from(s, 'base64');
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}

function setHeader(headers: Record<string, string>, key: string, value: string): void {
  // defineProperty: a header named __proto__ must stay a plain key.
  Object.defineProperty(headers, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * The first PEM block and what follows it, or undefined when there is none (Go's pem.Decode).
 * Linear, where Go before CVE-2025-61723 was quadratic: `rest` only moves forward, so the END
 * found for one BEGIN line stands for every later one until `rest` passes it.
 */
export function decodeFirstPemBlock(input: Uint8Array | string): { block: PemBlock; rest: Uint8Array } | undefined {
  const data = toBuffer(input);
  let rest = data;
  // Where the next END line starts, as an offset into data: -2 not searched yet, -1 none.
  let endAt = -2;
  for (;;) {
    if (rest.subarray(0, BEGIN.length - 1).equals(BEGIN.subarray(1))) {
      rest = rest.subarray(BEGIN.length - 1);
    } else {
      const at = rest.indexOf(BEGIN);
      if (at < 0) return undefined;
      rest = rest.subarray(at + BEGIN.length);
    }

    let typeLine: Buffer;
    [typeLine, rest] = getLine(rest);
    if (!endsWith(typeLine, DASHES)) continue;
    typeLine = typeLine.subarray(0, typeLine.length - DASHES.length);

    const headers: Record<string, string> = {};
    let headerCount = 0;
    for (;;) {
      // Go gives up entirely here (returns no block), it does not continue the search.
      if (rest.length === 0) return undefined;
      const [line, next] = getLine(rest);
      const colon = line.indexOf(0x3a);
      if (colon < 0) break;
      setHeader(headers, trimSpace(line.subarray(0, colon)), trimSpace(line.subarray(colon + 1)));
      headerCount++;
      rest = next;
    }

    let endIndex: number;
    let endTrailerIndex: number;
    if (headerCount === 0 && rest.subarray(0, END.length - 1).equals(END.subarray(1))) {
      endIndex = 0;
      endTrailerIndex = END.length - 1;
    } else {
      const from = data.length - rest.length;
      if (endAt === -2 || (endAt >= 0 && endAt < from)) endAt = data.indexOf(END, from);
      endIndex = endAt < 0 ? -1 : endAt - from;
      endTrailerIndex = endIndex + END.length;
    }
    if (endIndex < 0) continue;

    const trailerLen = typeLine.length + DASHES.length;
    const afterEnd = rest.subarray(endTrailerIndex);
    if (afterEnd.length < trailerLen) continue;
    const trailer = afterEnd.subarray(0, trailerLen);
    if (!trailer.subarray(0, typeLine.length).equals(typeLine) || !endsWith(trailer, DASHES)) continue;
    if (getLine(afterEnd.subarray(trailerLen))[0].length !== 0) continue;

    const der = decodeBase64(rest.subarray(0, endIndex));
    if (der === undefined) continue;

    const [, after] = getLine(rest.subarray(endIndex + END.length - 1));
    return { block: { label: typeLine.toString('utf8'), headers, der }, rest: after };
  }
}

function endsWith(b: Buffer, suffix: Buffer): boolean {
  return b.length >= suffix.length && b.subarray(b.length - suffix.length).equals(suffix);
}

/** Every PEM block, in order, as repeated Go pem.Decode calls find them; text around blocks is ignored. */
export function decodePemBlocks(text: Uint8Array | string): PemBlock[] {
  const blocks: PemBlock[] = [];
  let rest: Uint8Array = toBuffer(text);
  for (;;) {
    const found = decodeFirstPemBlock(rest);
    if (found === undefined) return blocks;
    blocks.push(found.block);
    rest = found.rest;
  }
}

/** RFC 7468 strict form: base64 in 64-character lines, LF line ends. */
export function encodePem(label: string, der: Uint8Array): string {
  if (typeof label !== 'string' || /[\r\n]|-----/.test(label)) throw new TypeError('invalid PEM label');
  if (!(der instanceof Uint8Array)) throw new TypeError('PEM data must be a Uint8Array');
  const b64 = Buffer.from(der.buffer, der.byteOffset, der.byteLength).toString('base64');
  let body = '';
  for (let i = 0; i < b64.length; i += 64) body += b64.slice(i, i + 64) + '\n';
  return `-----BEGIN ${label}-----\n${body}-----END ${label}-----\n`;
}
