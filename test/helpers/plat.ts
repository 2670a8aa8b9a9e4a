// Starts plat for a test: in-process (boot the `all` profile, fast) or as a child process running
// the real `plat` command. Both use a temp --data-dir and a free loopback port, and give back a
// small HTTPS client authenticated as the admin (client certificate from <data-dir>/pki).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Host } from '../../core/host.js';
import type { Logger } from '../../core/log.js';
import type { Plugin } from '../../core/plugin.js';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const platBin = path.join(repoRoot, 'dist/host/main.js');

export async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/**
 * Runs `start` with a port freePort found, and again with another (twice at most) when the port
 * was taken in between: the kernel hands the same ephemeral range to the outgoing connections of
 * the tests running beside this one, so a port free a moment ago may be some client's by now.
 */
export async function withFreePort<T>(start: (port: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort());
    } catch (e) {
      if (attempt >= 3 || !/EADDRINUSE/.test(String((e as Error)?.message ?? e))) throw e;
    }
  }
}

/** The error code of a new TCP connection to 127.0.0.1:`port` (ECONNREFUSED...), undefined when it connects. */
export function connectError(port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => { s.destroy(); resolve(undefined); });
    s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code));
  });
}

export interface Response { status: number; headers: Record<string, string | string[] | undefined>; text: string; json: any; raw: Buffer }

export interface Credentials { ca: string; cert?: string; key?: string; token?: string }

export class Client {
  constructor(readonly url: string, readonly creds: Credentials) {}
  request(method: string, p: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const u = new URL(p, this.url);
    const payload = body === undefined ? undefined : typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = https.request({
        method, hostname: u.hostname, port: u.port, path: u.pathname + u.search, ca: this.creds.ca,
        ...(this.creds.cert ? { cert: this.creds.cert, key: this.creds.key } : {}),
        headers: {
          accept: 'application/json',
          ...(payload !== undefined ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) } : {}),
          ...(this.creds.token ? { authorization: `Bearer ${this.creds.token}` } : {}),
          ...headers,
        },
      }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const text = raw.toString('utf8');
          let json: unknown;
          try { json = JSON.parse(text); } catch { json = undefined; }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json, raw });
        });
      });
      req.on('error', reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }
  get(p: string, headers?: Record<string, string>) { return this.request('GET', p, undefined, headers); }
  post(p: string, body: unknown, headers?: Record<string, string>) { return this.request('POST', p, body, headers); }
  put(p: string, body: unknown, headers?: Record<string, string>) { return this.request('PUT', p, body, headers); }
  patch(p: string, body: unknown, type: string, headers: Record<string, string> = {}) {
    return this.request('PATCH', p, body, { 'content-type': type, ...headers });
  }
  delete(p: string, body?: unknown) { return this.request('DELETE', p, body); }
  with(creds: Partial<Credentials> & { anonymous?: boolean }): Client {
    if (creds.anonymous) return new Client(this.url, { ca: this.creds.ca });
    return new Client(this.url, { ca: this.creds.ca, ...creds });
  }
}

export interface RunningPlat {
  readonly url: string;
  readonly dataDir: string;
  readonly admin: Client;
  readonly kubeconfig: string;
  readonly host?: Host;
  stop(): Promise<void>;
}

function adminClient(url: string, dataDir: string): Client {
  const pki = path.join(dataDir, 'pki');
  return new Client(url, {
    ca: readFileSync(path.join(pki, 'ca.crt'), 'utf8'),
    cert: readFileSync(path.join(pki, 'admin.crt'), 'utf8'),
    key: readFileSync(path.join(pki, 'admin.key'), 'utf8'),
  });
}

export function tempDir(prefix = 'plat-test-'): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Boots `plat all` in this process. */
export async function startInProcess(opts: {
  args?: string[]; dataDir?: string; cwd?: string; configFile?: string; logger?: Logger;
  /** Added after the profile's plugins (test-only authorizers and the like). */
  plugins?: readonly Plugin[];
  /** Profile plugins replaced by name (one built with test timings, say). */
  replace?: readonly Plugin[];
} = {}): Promise<RunningPlat> {
  // Imported here, not at the top: they are most of plat's modules (about a second of CPU to
  // load), and most files importing this one only spawn the plat command or use a client.
  const [{ boot }, { silentLogger }, { profiles }, { getApiServer }] = await Promise.all([
    import('../../core/boot.js'), import('../../core/log.js'), import('../../host/profiles.js'), import('../../plugins/apiserver/index.js'),
  ]);
  const dataDir = opts.dataDir ?? tempDir();
  const { host } = await withFreePort(async (port) => boot({
    profile: {
      ...profiles['all']!,
      plugins: [...profiles['all']!.plugins.map((p) => opts.replace?.find((r) => r.name === p.name) ?? p), ...(opts.plugins ?? [])],
      prepare: profiles['all']!.prepare!,
    },
    argv: ['--data-dir', dataDir, '--secure-port', String(port), ...(opts.args ?? [])],
    cwd: opts.cwd ?? dataDir, logger: opts.logger ?? silentLogger, version: '0.0.0-test',
    ...(opts.configFile ? { configFile: opts.configFile } : {}),
  }));
  const api = getApiServer(host)!;
  return {
    url: api.url, dataDir, host, admin: adminClient(api.url, dataDir), kubeconfig: path.join(dataDir, 'admin.conf'),
    stop: async () => { await host.hooks.shutdown.promise(); if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true }); },
  };
}

/** Runs the real `plat all` command as a child process and waits until it serves. */
export async function startProcess(opts: { args?: string[]; dataDir?: string; cwd?: string; env?: Record<string, string> } = {}): Promise<RunningPlat & { child: ChildProcess; output: () => string }> {
  const dataDir = opts.dataDir ?? tempDir();
  const { child, url, output } = await withFreePort(async (port) => {
    const child = spawn(process.execPath, [platBin, 'all', '--data-dir', dataDir, '--secure-port', String(port), ...(opts.args ?? [])], {
      cwd: opts.cwd ?? repoRoot, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
    child.stderr!.on('data', (d: Buffer) => { out += d.toString(); });
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`plat did not start within 30s:\n${out}`)), 30_000);
      const check = () => {
        const m = /plat is serving at (https:\/\/\S+)/.exec(out);
        if (m) { clearTimeout(timer); resolve(m[1]!); }
      };
      child.stdout!.on('data', check);
      child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`plat exited with ${code}:\n${out}`)); });
    });
    return { child, url, output: () => out };
  });
  return {
    url, dataDir, child, output, admin: adminClient(url, dataDir), kubeconfig: path.join(dataDir, 'admin.conf'),
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
