// What the node-agent server tests share: a running `server` subsystem on free loopback ports, a
// raw HTTPS/HTTP request helper (the raw path is sent as written, so `..` reaches the server), and
// a client for the API server authenticated as its admin.
import { spawn } from 'node:child_process';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { RestClient } from '../../../core/client/rest-client.js';
import { loadKubeconfig } from '../../../core/client/kubeconfig.js';
import type { NodeAgentConfiguration } from '../../../core/nodeagent/configuration.js';
import type { NodeAgentContext, TlsPair } from '../../../core/nodeagent/context.js';
import { generateSelfSignedServing } from '../../../core/pki/index.js';
import { createServerSubsystem, type ServerSubsystemOptions } from '../../../plugins/nodeagent-server/index.js';
import { nodeAgentTestContext, type TestContextOptions } from '../../helpers/nodeagent-context.js';
import { freePort, type RunningPlat } from '../../helpers/plat.js';

export interface Answer { status: number; headers: http.IncomingHttpHeaders; text: string; json: any }

export interface RequestOptions {
  method?: string;
  body?: string;
  headers?: Record<string, string>;
  /** Trust bundle for the server's certificate; absent: plain HTTP. */
  ca?: string;
  cert?: string;
  key?: string;
  token?: string;
}

export function request(port: number, path: string, o: RequestOptions = {}): Promise<Answer> {
  const lib = o.ca ? https : http;
  return new Promise((resolve, reject) => {
    const req = lib.request({
      host: '127.0.0.1', port, path, method: o.method ?? 'GET', agent: false,
      ...(o.ca ? { ca: o.ca, servername: 'localhost' } : {}),
      ...(o.cert ? { cert: o.cert, key: o.key } : {}),
      headers: {
        ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
        ...(o.body !== undefined ? { 'content-length': String(Buffer.byteLength(o.body)) } : {}),
        ...o.headers,
      },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try { json = JSON.parse(text); } catch { json = undefined; }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

export function selfSignedPair(host = 'node-1'): TlsPair {
  const p = generateSelfSignedServing({ hosts: [host] });
  return { cert: p.certificatePem, key: p.privateKeyPem };
}

export function adminApi(plat: RunningPlat): RestClient {
  return new RestClient(loadKubeconfig(plat.kubeconfig));
}

export interface RunningServer {
  readonly ctx: NodeAgentContext;
  readonly port: number;
  readonly readOnlyPort: number;
  readonly healthzPort: number;
  /** Resolves when the subsystem has stopped; rejects with its failure. */
  readonly done: Promise<void>;
  stop(): Promise<void>;
}

/** The config a test server starts from: loopback only, fresh free ports, anonymous AlwaysAllow unless overridden. */
export async function serverConfig(over: Partial<NodeAgentConfiguration> = {}): Promise<Partial<NodeAgentConfiguration>> {
  return {
    address: '127.0.0.1', healthzBindAddress: '127.0.0.1',
    port: await freePort(), readOnlyPort: 0, healthzPort: 0,
    authentication: { x509: {}, webhook: { enabled: false, cacheTTL: '2m0s' }, anonymous: { enabled: true } },
    authorization: { mode: 'AlwaysAllow', webhook: { cacheAuthorizedTTL: '5m0s', cacheUnauthorizedTTL: '30s' } },
    ...over,
  };
}

/** Starts the subsystem; with `pair` the serving pair is set first and the secure port is awaited. */
export async function startServer(o: TestContextOptions & { pair?: TlsPair; options?: ServerSubsystemOptions; setup?: (ctx: NodeAgentContext) => void }): Promise<RunningServer> {
  const ctx = nodeAgentTestContext({ standalone: true, ...o });
  o.setup?.(ctx);
  const sub = createServerSubsystem(ctx, o.options ?? {});
  const stop = new AbortController();
  const done = sub.run(stop.signal);
  done.catch(() => {});
  if (o.pair) {
    ctx.servingPair.set(o.pair);
    await waitForPort(ctx.config.port, done);
  }
  return {
    ctx, port: ctx.config.port, readOnlyPort: ctx.config.readOnlyPort, healthzPort: ctx.config.healthzPort, done,
    stop: async () => { stop.abort(); await done; },
  };
}

/** Bounded: the listener is up within a few seconds or the subsystem failed. */
export async function waitForPort(port: number, failed: Promise<unknown>): Promise<void> {
  let failure: unknown;
  failed.catch((e) => { failure = e; });
  for (let i = 0; i < 200; i++) {
    if (failure) throw failure;
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => { s.destroy(); resolve(true); });
      s.once('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`nothing listens on 127.0.0.1:${port}`);
}

/**
 * The certificate `openssl s_client` is presented on 127.0.0.1:port. Asynchronous: the server under
 * test runs in this process, so a synchronous spawn would keep it from answering the handshake.
 */
export function opensslPresented(port: number): Promise<{ pem: string | undefined; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('openssl', ['s_client', '-connect', `127.0.0.1:${port}`, '-servername', 'localhost'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => { out += c.toString('utf8'); });
    child.stderr.on('data', (c: Buffer) => { out += c.toString('utf8'); });
    child.on('error', reject);
    child.on('close', () => resolve({ pem: /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/.exec(out)?.[0], output: out }));
    child.stdin.end();
  });
}
