// A kubeconfig user's `exec` credential plugin, run as client-go's exec Authenticator runs it: the
// command with its args, the environment plus the config's env plus KUBERNETES_EXEC_INFO (the
// ExecCredential spec: interactive, and the cluster when provideClusterInfo), the plugin's stderr
// passed through, stdin handed over only when interactive. Its credential is kept until its
// expirationTimestamp; a 401 answer to a request sent with it runs the plugin again at once
// (maybeRefreshCreds), unless another request already did. One run at a time: a plugin may prompt.
// Authenticators are shared by every client built from the same config and cluster, as
// client-go's globalCache shares them, so a daemon's several clients run the plugin once.
import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { isatty } from 'node:tty';
import { osErrorText } from '../go-os-error.js';
import type { Credential, CredentialSource } from './credential-source.js';
import { readExecOutput, type ExecOutput } from './exec-credential-output.js';

export type InteractiveMode = 'Never' | 'IfAvailable' | 'Always';

export interface ExecConfig {
  /** As clientcmd resolved it: a path with a slash starts at the kubeconfig's directory. */
  readonly command: string;
  readonly args: readonly string[];
  readonly env: readonly { readonly name: string; readonly value: string }[];
  readonly apiVersion: string;
  readonly installHint: string;
  readonly interactiveMode: InteractiveMode;
  /** The ExecCredential spec's cluster (clientauthentication's Cluster, v1 JSON), when provideClusterInfo. */
  readonly cluster?: Record<string, unknown>;
}

const EXEC_INFO_ENV = 'KUBERNETES_EXEC_INFO';
const INSTALL_HINT_HELP = `

It looks like you are trying to use a client-go credential plugin that is not installed.

To learn more about this feature, consult the documentation available at:
      https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins`;

/** The surroundings a plugin runs in, injectable for tests. */
export interface ExecEnvironment {
  readonly now: () => number;
  readonly stdinIsTerminal: () => boolean;
  readonly environ: () => NodeJS.ProcessEnv;
}

const REAL: ExecEnvironment = { now: Date.now, stdinIsTerminal: () => isatty(0), environ: () => process.env };

interface Cached extends Credential { readonly expiresAt: number | undefined }

export class ExecAuthenticator implements CredentialSource {
  #cached: Cached | undefined;
  #running: Promise<Cached> | undefined;
  /** client-go's `sometimes`: the install hint at most 10 times an hour, so a daemon's log is not flooded. */
  #hints: { window: number; count: number } = { window: 0, count: 0 };

  constructor(private readonly config: ExecConfig, private readonly env: ExecEnvironment = REAL) {}

  async get(): Promise<Credential> {
    // A run under way (another request's, or a 401's) is waited for, as client-go's mutex makes
    // every request wait for it; then the credential is taken as getCreds takes it.
    if (this.#running) await this.#running.catch(() => {});
    const cached = this.#cached;
    // credsExpired: strictly after the expiry.
    if (cached && !(cached.expiresAt !== undefined && this.env.now() > cached.expiresAt)) return cached;
    try {
      return await this.#refresh();
    } catch (e) {
      throw new Error(`getting credentials: ${(e as Error).message}`);
    }
  }

  unauthorized(used: Credential): Promise<void> {
    // Already rotated by another request's 401 (or expiry): nothing to do.
    if (used !== this.#cached) return Promise.resolve();
    // Failure keeps the credential it had, as client-go's (which logs it): the next request tries it again.
    return this.#refresh().then(() => {}, () => {});
  }

  #refresh(): Promise<Cached> {
    this.#running ??= this.#run().then((c) => { this.#cached = c; return c; }).finally(() => { this.#running = undefined; });
    return this.#running;
  }

  async #run(): Promise<Cached> {
    const interactive = this.#interactive();
    const c = this.config;
    // runtime.Encode with the LegacyCodec: kind and apiVersion first, then the spec in field order.
    const info = JSON.stringify({
      kind: 'ExecCredential', apiVersion: c.apiVersion,
      spec: { ...(c.cluster ? { cluster: c.cluster } : {}), interactive },
    });
    const env: NodeJS.ProcessEnv = { ...this.env.environ() };
    for (const e of c.env) env[e.name] = e.value;
    env[EXEC_INFO_ENV] = info;
    const file = c.command.includes('/') ? c.command : lookPath(c.command, env['PATH'] ?? '');
    if (file === undefined) throw new Error(`exec: executable ${c.command} not found${this.#hint()}`);
    const stdout = await new Promise<string>((resolve, reject) => {
      const child = spawn(file, [...c.args], { env, stdio: [interactive ? 'inherit' : 'ignore', 'pipe', 'inherit'] });
      const chunks: Buffer[] = [];
      child.stdout.on('data', (d: Buffer) => chunks.push(d));
      child.once('error', (e) => reject(new Error(`exec: ${osErrorText('fork/exec', file, e)}`)));
      child.once('close', (code) => {
        if (code === 0) resolve(Buffer.concat(chunks).toString('utf8'));
        // ProcessState.ExitCode(): -1 for a process a signal ended.
        else reject(new Error(`exec: executable ${c.command} failed with exit code ${code ?? -1}`));
      });
    });
    const out: ExecOutput = readExecOutput(stdout, c.apiVersion);
    return {
      ...(out.token !== undefined ? { authorization: `Bearer ${out.token}` } : {}),
      ...(out.cert && out.key ? { cert: out.cert, key: out.key } : {}),
      expiresAt: out.expiresAt,
    };
  }

  #interactive(): boolean {
    switch (this.config.interactiveMode) {
      case 'Never': return false;
      case 'IfAvailable': return this.env.stdinIsTerminal();
      case 'Always':
        if (!this.env.stdinIsTerminal()) throw new Error('exec plugin cannot support interactive mode: standard input is not a terminal');
        return true;
    }
  }

  #hint(): string {
    const now = this.env.now();
    if (now - this.#hints.window >= 3_600_000) this.#hints = { window: now, count: 0 };
    if (this.#hints.count >= 10) return '';
    this.#hints.count++;
    return INSTALL_HINT_HELP + (this.config.installHint ? `\n\n${this.config.installHint}` : '');
  }
}

/** exec.LookPath: the first executable regular file of that name in $PATH (an empty entry is the working directory). */
function lookPath(name: string, pathList: string): string | undefined {
  for (const dir of pathList.split(path.delimiter)) {
    const file = path.join(dir === '' ? '.' : dir, name);
    try {
      if (!statSync(file).isFile()) continue;
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      continue;
    }
  }
  return undefined;
}

const shared = new Map<string, ExecAuthenticator>();

/** The authenticator of this config and cluster, shared by every client built with them (client-go's globalCache). */
export function execAuthenticator(config: ExecConfig): ExecAuthenticator {
  const key = JSON.stringify(config);
  let a = shared.get(key);
  if (!a) {
    a = new ExecAuthenticator(config);
    shared.set(key, a);
  }
  return a;
}

/**
 * clientcmd's cleanANSIEscapeCodes for the install hint: letters, marks, numbers, punctuation,
 * symbols, separators and \t-\r pass; anything else (ESC above all) is written as U+XXXX.
 */
export function cleanAnsiEscapeCodes(s: string): string {
  return s.replace(/[^\p{L}\p{M}\p{N}\p{P}\p{S}\p{Z}\t-\r]/gu, (ch) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
}
