// Reads request bodies with the apiserver's 3 MiB limit (413 beyond it) and decodes JSON or YAML.
import type { IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import YAML from 'yaml';
import { errors } from '../api/errors.js';
import { GO_YAML } from '../api/go-yaml.js';

export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

export async function readBody(req: IncomingMessage | Http2ServerRequest, limit = MAX_REQUEST_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > limit) throw errors.requestEntityTooLarge(`limit is ${limit}`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw errors.requestEntityTooLarge(`limit is ${limit}`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The media type without parameters, lowercased; a missing Content-Type means JSON (kubectl --raw sends none). */
export function mediaType(header: string | undefined): string {
  return (header ?? 'application/json').split(';')[0]!.trim().toLowerCase() || 'application/json';
}

/** Parses JSON (or YAML, as upstream reads it, for application/yaml and apply patches). Returns the value and the JSON text when it was JSON. */
export function parseDocument(body: Buffer, type: string, what: string): { value: unknown; json?: string } {
  const text = body.toString('utf8');
  if (type === 'application/yaml' || type === 'application/apply-patch+yaml') {
    try {
      const value: unknown = YAML.parse(text, { ...GO_YAML, uniqueKeys: false, intAsBigInt: false });
      return { value };
    } catch (e) {
      throw errors.badRequest(`${what}: error converting YAML to JSON: ${(e as Error).message.split('\n')[0]}`);
    }
  }
  try {
    return { value: JSON.parse(text) as unknown, json: text };
  } catch (e) {
    throw errors.badRequest(`${what}: ${goJsonError(text, e as Error)}`);
  }
}

function goJsonError(text: string, e: Error): string {
  if (text.trim() === '') return 'unexpected end of JSON input';
  const m = /position (\d+)/.exec(e.message);
  return m ? `invalid character at offset ${m[1]}: ${e.message}` : e.message;
}
