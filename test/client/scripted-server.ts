// A server on 127.0.0.1 (plain HTTP, or HTTPS given a serving certificate) that answers each request
// with the next step of a script (then with the last step for ever), and records what it was sent:
// for how the REST and webhook clients meet misbehaving servers.
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

export type Step = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

export interface Seen { method: string; url: string; body: string }

export interface ScriptedServer { readonly url: URL; readonly seen: Seen[]; script(...steps: Step[]): void; close(): Promise<void> }

export async function startScriptedServer(tls?: { readonly cert: string; readonly key: string }): Promise<ScriptedServer> {
  let steps: Step[] = [];
  const seen: Seen[] = [];
  const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => { body += c; });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', body });
      const step = steps.length > 1 ? steps.shift()! : steps[0];
      step?.(req, res, body);
    });
  };
  const server = tls ? https.createServer(tls, handle) : http.createServer(handle);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: new URL(`${tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`),
    seen,
    script(...s: Step[]) { steps = s; seen.length = 0; },
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

export const json = (code: number, obj: unknown, headers: Record<string, string> = {}): Step => (_req, res) => {
  res.writeHead(code, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(obj));
};
export const text = (code: number, body: string, contentType: string, headers: Record<string, string> = {}): Step => (_req, res) => {
  res.writeHead(code, { 'content-type': contentType, ...headers }).end(body);
};
/** The connection is dropped before any answer. */
export const reset: Step = (req) => { req.socket.destroy(); };
/** Headers and part of the body, then the connection is dropped. */
export const cutBody: Step = (req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
  res.write('{"kind":"Certi', () => setTimeout(() => req.socket.destroy(), 20));
};
/** Never answers. */
export const hang: Step = () => {};
export const status = (code: number, reason: string, message: string, headers: Record<string, string> = {}): Step =>
  json(code, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code }, headers);
/** `step` after `ms`, as a webhook that is slow to answer. */
export const after = (ms: number, step: Step): Step => (req, res, body) => { setTimeout(() => step(req, res, body), ms); };
