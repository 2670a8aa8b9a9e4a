// One GET of a JSON document over HTTPS, as the OIDC client makes it for discovery and key sets:
// the issuer's CA (or the host's roots), a timeout, a size limit, and go-oidc's error wording.
// A GET sent on a kept-alive connection that the issuer closed at that moment (its idle timeout;
// Node's servers close after 5 s) is sent again once on a new connection, as Go's transport does
// for a replayable request on a reused connection: otherwise a key fetch every few seconds would
// now and then refuse valid tokens with `read ECONNRESET`.
import https from 'node:https';
import { checkServerIdentity } from '../../core/client/server-identity.js';

export const DEFAULT_FETCH_TIMEOUT_MS = 10_000;
const MAX_BODY_BYTES = 1 << 20;

export type FetchJson = (url: string) => Promise<unknown>;

export class FetchError extends Error {
  override readonly name = 'FetchError';
}

const STATUS_TEXT: Record<number, string> = { 404: 'Not Found', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable' };

/** A GET-JSON function bound to one trust setting; `close()` drops its kept-alive connections. */
export function createFetchJson(opts: { ca?: string; timeoutMs?: number }): { fetchJson: FetchJson; close(): void } {
  const agent = new https.Agent({ keepAlive: true, ...(opts.ca ? { ca: opts.ca } : {}), checkServerIdentity });
  const timeoutMs = opts.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
  const fetchJson: FetchJson = (url) => new Promise((resolve, reject) => {
    let u: URL;
    try { u = new URL(url); } catch { return reject(new FetchError(`invalid URL ${JSON.stringify(url)}`)); }
    if (u.protocol !== 'https:') return reject(new FetchError(`${JSON.stringify(url)} is not an https URL`));
    get(u, url, true, resolve, reject);
  });
  const get = (u: URL, url: string, mayResend: boolean, resolve: (v: unknown) => void, reject: (e: unknown) => void): void => {
    let answered = false;
    const req = https.get(u, { agent, headers: { accept: 'application/json' }, timeout: timeoutMs }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_BODY_BYTES) { req.destroy(new FetchError(`response from ${url} is larger than ${MAX_BODY_BYTES} bytes`)); return; }
        chunks.push(c);
      });
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const status = res.statusCode ?? 0;
        if (status !== 200) {
          return reject(new FetchError(`${status} ${res.statusMessage || STATUS_TEXT[status] || ''}: ${body.slice(0, 200).trim()}`.trim()));
        }
        try { resolve(JSON.parse(body)); } catch (err) { reject(new FetchError(`invalid JSON: ${(err as Error).message}`)); }
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new FetchError(`Get ${JSON.stringify(url)}: timeout after ${timeoutMs}ms`)));
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (mayResend && !answered && req.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE')) {
        get(u, url, false, resolve, reject);
        return;
      }
      reject(err instanceof FetchError ? err : new FetchError(`Get ${JSON.stringify(url)}: ${err.message}`));
    });
  };
  return { fetchJson, close: () => agent.destroy() };
}
