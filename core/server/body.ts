// Reads request bodies with the apiserver's 3 MiB limit (413 beyond it) and decodes JSON or YAML.
import { IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import { yaml } from '../yaml-module.js';
import { isYamlMediaType, parsedOffThread } from './yaml-off-thread.js';
import { errors } from '../api/errors.js';
import { interpretError } from '../api/go-decode-errors.js';
import { goJsonSyntaxError, MAX_NESTING_DEPTH } from '../api/go-json-syntax.js';
import { GO_YAML } from '../api/go-yaml.js';
import { goYamlSyntaxError, type YamlPackageError } from '../api/go-yaml-errors.js';
import { GO_YAML_MAX_DEPTH, jsonDepthError, nestingBytes, yamlDepthError } from '../api/go-yaml-depth.js';

export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

/**
 * The request's body. `signal` is the request's context: once it ends (its deadline passed, or the
 * client went away) a body still arriving is given up, and the read rejects with its reason. Without
 * that, an HTTP/1.1 body still uploading at the 504 is never read to its end (Node lets go of the
 * answered request), and the handler, with its max-in-flight seat, would wait for ever; the 504
 * closes that connection (request-deadline.ts).
 */
export async function readBody(req: IncomingMessage | Http2ServerRequest, signal?: AbortSignal, limit = MAX_REQUEST_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > limit) throw errors.requestEntityTooLarge(`limit is ${limit}`);
  const arrived = arrivedBody(req, limit);
  if (arrived) return arrived;
  const chunks: Buffer[] = [];
  let size = 0;
  const it = (req as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  const ended = signal ? whenEnded(signal) : undefined;
  try {
    for (;;) {
      const next = ended ? await Promise.race([it.next(), ended.promise]) : await it.next();
      if (next.done) break;
      size += next.value.length;
      if (size > limit) throw errors.requestEntityTooLarge(`limit is ${limit}`);
      chunks.push(next.value);
    }
  } finally {
    ended?.release();
  }
  return Buffer.concat(chunks);
}

/** A promise that rejects with the signal's reason once it aborts, and the release of its listener. */
function whenEnded(signal: AbortSignal): { promise: Promise<never>; release: () => void } {
  let release = (): void => {};
  const promise = new Promise<never>((_resolve, reject) => {
    if (signal.aborted) { reject(signal.reason); return; }
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    release = () => signal.removeEventListener('abort', onAbort);
  });
  // Rejected after the read is over, nobody awaits it.
  promise.catch(() => {});
  return { promise, release };
}

/**
 * An HTTP/1.1 body that has arrived whole by the time it is asked for (a small one usually has:
 * it came with its headers), taken from the stream's buffer at once. Reading it through the
 * stream's async iterator cost more than anything else in reading a body (~3% of a write's event
 * loop). Whole: the parser has completed the message, or holds as many bytes as Content-Length
 * says (it completes the message in the same parse, but plat's handler may run between its
 * callbacks). Anything else (still arriving, over the limit, already flowing or read, HTTP/2) is
 * left to the iterator, which answers it as before.
 */
function arrivedBody(req: IncomingMessage | Http2ServerRequest, limit: number): Buffer | undefined {
  if (!(req instanceof IncomingMessage) || req.destroyed || req.readableFlowing !== null || req.readableDidRead) return undefined;
  const declared = req.headers['content-length'];
  const whole = req.complete || (declared !== undefined && /^[0-9]+$/.test(declared) && Number(declared) === req.readableLength);
  if (!whole || req.readableLength > limit) return undefined;
  const chunks: Buffer[] = [];
  for (let chunk = req.read() as Buffer | null; chunk !== null; chunk = req.read() as Buffer | null) chunks.push(chunk);
  // Flowing, the stream takes its end when the parser gives it (nothing else can come), and ends
  // and closes as it did when the iterator read it to the end.
  req.resume();
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

/** The media type without parameters, lowercased; a missing Content-Type means JSON (kubectl --raw sends none). */
export function mediaType(header: string | undefined): string {
  return (header ?? 'application/json').split(';')[0]!.trim().toLowerCase() || 'application/json';
}

/**
 * A body that is not JSON (or YAML) at all. The message is the one Go's decoder gives
 * (encoding/json's syntax error, or the YAML conversion's); each handler wraps it in its own words.
 */
export class BodySyntaxError extends Error {
  constructor(message: string, readonly yaml: boolean) { super(message); }
}

/** Parses JSON (or YAML, as upstream reads it, for application/yaml and apply patches). Returns the value and the JSON text when it was JSON. */
export function parseDocument(body: Buffer, type: string): { value: unknown; json?: string } {
  if (isYamlMediaType(type)) {
    const done = parsedOffThread(body);
    if (done?.syntaxError !== undefined) throw new BodySyntaxError(done.syntaxError, done.yaml);
    if (done) return { value: done.value };
  }
  const text = body.toString('utf8');
  if (isYamlMediaType(type)) {
    // Deep nesting is looked for only where there are enough bytes to open that many levels.
    const mayBeTooDeep = nestingBytes(body, GO_YAML_MAX_DEPTH) > GO_YAML_MAX_DEPTH;
    const tooDeep = mayBeTooDeep ? yamlDepthError(text) : undefined;
    if (tooDeep) throw new BodySyntaxError(tooDeep, true);
    let value: unknown;
    try {
      value = yaml().parse(text, { ...GO_YAML, uniqueKeys: false, intAsBigInt: false });
    } catch (e) {
      throw new BodySyntaxError(yamlError(e as Error, text), true);
    }
    const tooDeepForJson = mayBeTooDeep ? jsonDepthError(value) : undefined;
    if (tooDeepForJson) throw new BodySyntaxError(tooDeepForJson, false);
    return { value };
  }
  // Nesting deeper than Go's limit needs more bytes than the limit; smaller bodies skip the scan.
  const refused = body.length > MAX_NESTING_DEPTH ? goJsonSyntaxError(body) : undefined;
  if (refused) throw new BodySyntaxError(refused, false);
  try {
    return { value: JSON.parse(text) as unknown, json: text };
  } catch (e) {
    // JSON.parse and Go accept the same documents; the fallback only guards against a difference.
    throw new BodySyntaxError(goJsonSyntaxError(body) ?? (e as Error).message, false);
  }
}

/** go-yaml's words for the common mistakes, else its shape (`yaml: line N: ...`) around the yaml package's own words. */
export function yamlError(e: Error & YamlPackageError, text: string): string {
  const mapped = goYamlSyntaxError(text, e);
  if (mapped) return mapped;
  const line = e.linePos?.[0]?.line;
  const words = e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  return line === undefined ? `yaml: ${words}` : `yaml: line ${line}: ${words}`;
}

/**
 * A whole-object body as the serializer reads it: its syntax, then Interpret's version/kind sniff.
 * `fail` words the decoder's error as the calling handler does. A JSON null decodes, as in Go, to
 * an object with nothing set.
 */
export function decodeBody(body: Buffer, type: string, fail: (cause: string) => Error): { value: unknown; json?: string } {
  let doc: { value: unknown; json?: string };
  try {
    doc = parseDocument(body, type);
  } catch (e) {
    if (!(e instanceof BodySyntaxError)) throw e;
    throw fail(e.yaml ? e.message : `couldn't get version/kind; json parse error: ${e.message}`);
  }
  const problem = interpretError(doc.value);
  if (problem) throw fail(`couldn't get version/kind; json parse error: ${problem}`);
  return doc.value === null ? { ...doc, value: {} } : doc;
}
