// One HTTPS request to the API server with a kubeconfig's credentials (and impersonation), for the `plat` commands
// that talk to a running server (token create, auth can-i, snapshot save).
import http from 'node:http';
import https from 'node:https';
import type { WebhookConnection } from '../../core/client/kubeconfig.js';
import { ApiError, apiUrl } from '../../core/client/rest-client.js';
import { responseError } from '../../core/client/response-error.js';
import { withTlsVerifyReason } from '../../core/client/tls-verify-error.js';
import { CommandError } from './command-error.js';
import { transportTlsOptions } from '../../core/client/transport-tls.js';
import { ProxyAgent } from '../../core/client/proxy-connect.js';
import { withImpersonation } from '../../core/client/impersonation-headers.js';

export type Connection = WebhookConnection;

export interface ApiResponse { status: number; contentType?: string | undefined; text: string; json: unknown }

export async function apiRequest(conn: Connection, method: string, path: string, body?: unknown, headers: Record<string, string | string[]> = {}): Promise<ApiResponse> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const sent = await sendApiRequest(conn, method, path, headers, payload);
  const res = await new Promise<{ status: number; contentType: string | undefined; text: string }>((resolve, reject) => {
    const r = sent.response;
    const chunks: Buffer[] = [];
    r.on('data', (c: Buffer) => chunks.push(c));
    r.on('error', reject);
    r.on('end', () => resolve({ status: r.statusCode ?? 0, contentType: r.headers['content-type'], text: Buffer.concat(chunks).toString() }));
  }).catch((e: Error) => { throw new CommandError(`Unable to connect to the server: ${e.message}`); })
    .finally(() => sent.done());
  let json: unknown;
  try { json = JSON.parse(res.text); } catch { json = undefined; }
  return { ...res, json };
}

export interface SentRequest {
  /** The answer's head; its body is the caller's to read. */
  readonly response: http.IncomingMessage;
  /** Frees the proxy connection, if any, once the body is read. */
  done(): void;
}

/**
 * One request with the kubeconfig's credentials; resolves once the answer's head has come (a 401
 * has told the credentials so). For an answer read as a stream (plat snapshot save).
 */
export async function sendApiRequest(conn: Connection, method: string, path: string, headers: Record<string, string | string[]> = {}, payload?: string): Promise<SentRequest> {
  const url = apiUrl(conn.server, path);
  // The kubeconfig's credentials of the moment (a token file, basic auth, an exec plugin's token or
  // client certificate); failing to get them is failing to reach the server, as in kubectl.
  const credential = conn.credentials
    ? await conn.credentials.get().catch((e: Error) => { throw new CommandError(`Unable to connect to the server: ${e.message}`); })
    : undefined;
  const tlsOptions = transportTlsOptions(credential?.cert && credential.key ? { ...conn, clientCert: credential.cert, clientKey: credential.key } : conn);
  const authorization = credential?.authorization ?? (conn.token ? `Bearer ${conn.token}` : undefined);
  // The cluster's proxy-url, as every client-go transport honours it.
  const agent = conn.proxyUrl && url.protocol === 'https:' ? new ProxyAgent(conn.proxyUrl, tlsOptions) : undefined;
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
    // A kubeconfig may name a plain-HTTP server on a loopback host (kubeconfig.ts), as kubectl's may.
    const req = (url.protocol === 'http:' ? http : https).request(url, {
      method,
      headers: withImpersonation({
        accept: 'application/json', ...headers,
        ...(payload !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        ...(authorization ? { authorization } : {}),
      }, conn.impersonate),
      ...tlsOptions, ...(agent ? { agent } : {}),
    }, resolve);
    req.on('error', (e) => reject(Object.assign(withTlsVerifyReason(e), { url: url.href })));
    req.end(payload === undefined ? undefined : Buffer.from(payload)); // the head may hold UTF-8 bytes (impersonation-headers.ts)
  }).catch((e: Error) => {
    agent?.destroy();
    throw new CommandError(refusedMessage(e) ?? `Unable to connect to the server: ${e.message}`);
  });
  if (credential && response.statusCode === 401) await conn.credentials!.unauthorized(credential);
  return { response, done: () => agent?.destroy() };
}

/**
 * kubectl's words for a server nobody listens at, the first thing a user meets when the daemon is
 * not running (or listens elsewhere); undefined for any other error. As kubectl, the host is the one
 * the request was sent to (the kubeconfig's), not the address it resolved to.
 */
export function refusedMessage(e: unknown): string | undefined {
  const err = e as NodeJS.ErrnoException & { address?: string; port?: number; url?: string };
  // kubectl looks for the words in the url.Error's text: a SOCKS proxy's `connection refused` reply too.
  if (err?.code !== 'ECONNREFUSED' && !(err?.url && err.message?.includes('connection refused'))) return undefined;
  let host: string | undefined;
  try { if (err.url) host = new URL(err.url).host; } catch { /* not a URL: use the address */ }
  if (!host && err.address) host = `${err.address.includes(':') ? `[${err.address}]` : err.address}:${err.port}`;
  if (!host) return undefined;
  return `The connection to the server ${host} was refused - did you specify the right host or port?`;
}

/**
 * A refusal as client-go makes it of the answer (its Status, else the generic server response
 * naming the request), for kubectl's wording of it (csr-connection.ts describeError).
 */
export function refusal(res: ApiResponse, method: string, path: string): ApiError {
  const err = responseError(res.status, res.contentType, res.text, method, path);
  return new ApiError(res.status, err.reason, err.message, err.body);
}

