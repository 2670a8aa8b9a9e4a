// client-go's transformResponse and Result.Error for a non-2xx answer: a Status with `kind:
// Status` and `status: Failure` is the error as the server wrote it; anything else (no decoder for
// its Content-Type, JSON that is no Status) is NewGenericServerResponse's, named by the request.
import { genericServerResponse } from './generic-response.js';

/** client-go's maxUnstructuredResponseTextBytes: how much of a text answer an error repeats. */
const MAX_TEXT_BYTES = 2048;

export interface ResponseError { readonly reason: string; readonly message: string; readonly body: unknown }

/**
 * `anyMedia`: the client's serializer decodes whatever the Content-Type (an admission webhook's
 * client, whose one serializer claims every media type), so a Status is looked for in any body.
 */
export function responseError(code: number, contentType: string | undefined, text: string, method: string, path: string, o: { anyMedia?: boolean } = {}): ResponseError {
  const media = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  // No Content-Type: client-go assumes its own (JSON) and calls the body text.
  const decodable = o.anyMedia === true || media === '' || media === 'application/json';
  if (decodable) {
    let json: unknown;
    try { json = JSON.parse(text); } catch { json = undefined; }
    const s = json as { kind?: unknown; apiVersion?: unknown; status?: unknown; reason?: unknown; message?: unknown } | undefined;
    // Decoded with v1 as the default version; a body without a kind does not decode.
    if (s && typeof s === 'object' && s.kind === 'Status' && (s.apiVersion === undefined || s.apiVersion === 'v1') && s.status === 'Failure') {
      return { reason: typeof s.reason === 'string' ? s.reason : '', message: typeof s.message === 'string' ? s.message : '', body: json };
    }
  }
  const isText = media === '' || media.startsWith('text/');
  const serverMessage = isText ? Buffer.from(text).subarray(0, MAX_TEXT_BYTES).toString('utf8').trim() : 'unknown';
  const { resource, name } = requestTarget(path);
  const g = genericServerResponse(code, method, serverMessage, resource, name);
  return { ...g, body: undefined };
}

/**
 * The qualified resource (`plural.group`, or the plural alone in the core group) and name of an API
 * path, as client-go's Request knows them from how it was built.
 */
export function requestTarget(path: string): { resource: string; name: string } {
  const segs = path.split('?')[0]!.split('/').filter((s) => s !== '').map((s) => { try { return decodeURIComponent(s); } catch { return s; } });
  let rest: string[];
  let group = '';
  if (segs[0] === 'api') rest = segs.slice(2);
  else if (segs[0] === 'apis') { group = segs[1] ?? ''; rest = segs.slice(3); } else return { resource: '', name: '' };
  if (rest[0] === 'namespaces' && rest.length >= 3) rest = rest.slice(2);
  const plural = rest[0] ?? '';
  if (!plural) return { resource: '', name: '' };
  return { resource: group ? `${plural}.${group}` : plural, name: rest[1] ?? '' };
}
