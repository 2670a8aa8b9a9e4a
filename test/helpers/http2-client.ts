// One request over node:http2 that fails instead of waiting when no answer comes: a server that
// never ends a stream (HEAD did not, once) shows up as a failed test, not a hung run.
import http2 from 'node:http2';

export interface H2Answer {
  readonly status: number;
  /** The response headers, pseudo-headers and `date` left out. */
  readonly headers: Record<string, unknown>;
  readonly body: Buffer;
}

const BOUND_MS = 10_000;

export function connectH2(url: string, tls: { ca?: string; cert?: string; key?: string }): Promise<http2.ClientHttp2Session> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(url, tls);
    session.once('error', reject);
    session.once('connect', () => { session.off('error', reject); resolve(session); });
  });
}

/** The whole answer to `method path`, rejected if the stream has not ended within a bound. */
export function h2Fetch(session: http2.ClientHttp2Session, method: string, path: string, headers: Record<string, string> = {}): Promise<H2Answer> {
  return new Promise((resolve, reject) => {
    const req = session.request({ ':method': method, ':path': path, ...headers }, { endStream: true });
    const timer = setTimeout(() => {
      req.close(http2.constants.NGHTTP2_CANCEL);
      reject(new Error(`${method} ${path}: no complete answer within ${BOUND_MS} ms`));
    }, BOUND_MS);
    let status = 0;
    const kept: Record<string, unknown> = {};
    const chunks: Buffer[] = [];
    req.on('response', (h) => {
      status = Number(h[':status']);
      for (const [k, v] of Object.entries(h)) if (!k.startsWith(':') && k !== 'date') kept[k] = v;
    });
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => { clearTimeout(timer); resolve({ status, headers: kept, body: Buffer.concat(chunks) }); });
    req.on('error', (e) => { clearTimeout(timer); reject(e); });
  });
}

/** Resolves when the session receives a GOAWAY; rejects past a bound. */
export function goawayReceived(session: http2.ClientHttp2Session): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no GOAWAY within ${BOUND_MS} ms`)), BOUND_MS);
    session.once('goaway', () => { clearTimeout(timer); resolve(); });
  });
}
