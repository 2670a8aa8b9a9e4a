// Helpers for the controller manager's tests: boot `plat controller-manager` in this process (with
// test plugins), kubeconfig files for other identities, plat's CA to issue client certificates, a
// logger that keeps its lines, and a bounded wait for a condition read over the API.
import assert from 'node:assert/strict';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Flags } from '../../core/flags/flag-set.js';
import type { Host } from '../../core/host.js';
import { exitRequested, type ExitRequest } from '../../core/lifecycle.js';
import { createLogger, type Logger } from '../../core/log.js';
import type { Plugin } from '../../core/plugin.js';
import type { TestCredential } from '../helpers/certs.js';
import { Client, startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { tableAuthorizer, type Rule } from '../helpers/table-authorizer.js';

export interface RunningControllerManager {
  readonly host: Host;
  readonly flags: Flags;
  /** https://127.0.0.1:port of its endpoint (when serving). */
  readonly url: string;
  /** A client of the endpoint trusting its serving certificate, with no credentials. */
  readonly anonymous: Client;
  readonly exit: Promise<ExitRequest>;
  readonly logs: string[];
  stop(): Promise<void>;
}

export function recordingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  return { logger: createLogger({ verbosity: 4, write: (l) => lines.push(l) }), lines };
}

/** Boots the controller-manager profile in this process; `args` are its command line. */
export async function startControllerManager(args: readonly string[], plugins: readonly Plugin[] = []): Promise<RunningControllerManager> {
  // Imported here: they are most of plat's modules, and several files use only this file's
  // loggers, kubeconfigs and waits.
  const [{ boot }, { profiles }, { getControllerManagerServing }] = await Promise.all([
    import('../../core/boot.js'), import('../../host/profiles.js'), import('../../plugins/controller-manager-serving/index.js'),
  ]);
  const profile = profiles['controller-manager']!;
  const { logger, lines } = recordingLogger();
  // The self-signed serving pair goes to a --cert-dir so that the test can trust it.
  const certDir = args.some((a) => a.startsWith('--cert-dir')) ? undefined : tempDir();
  const { host, flags } = await boot({
    profile: { ...profile, plugins: [...profile.plugins, ...plugins] },
    argv: [...(certDir ? ['--cert-dir', certDir] : []), ...args], cwd: tempDir(), logger, version: '0.0.0-test',
  });
  const serving = getControllerManagerServing(host);
  const url = serving?.url ?? '';
  const ca = serving && certDir ? readFileSync(path.join(certDir, 'plat-controller-manager.crt'), 'utf8') : '';
  return {
    host, flags, url, logs: lines, exit: exitRequested(host),
    anonymous: new Client(url, { ca }),
    stop: () => host.hooks.shutdown.promise(),
  };
}

/**
 * A plat API server taking the bearer tokens `tokens` (`token,user,uid` lines, kept in `dir`) whose
 * whole policy is `rules` (AlwaysDeny behind the table): what the endpoint's reviews ask.
 */
export async function startTableAuthorizedPlat(dir: string, tokens: readonly string[], rules: readonly Rule[], plugins: readonly Plugin[] = []): Promise<RunningPlat> {
  const tokenFile = path.join(dir, 'tokens.csv');
  writeFileSync(tokenFile, tokens.join('\n') + '\n');
  return startInProcess({ args: ['--token-auth-file', tokenFile, '--authorization-mode', 'AlwaysDeny'], plugins: [...plugins, tableAuthorizer(rules)] });
}

/** A kubeconfig for `plat`'s server with a bearer token, a client certificate, or the admin's. */
export function writeKubeconfig(plat: RunningPlat, file: string, user: { token: string } | TestCredential | 'admin'): string {
  const pki = path.join(plat.dataDir, 'pki');
  const b64 = (f: string) => readFileSync(path.join(pki, f)).toString('base64');
  const pem64 = (pem: string) => Buffer.from(pem).toString('base64');
  const creds = user === 'admin'
    ? [`    client-certificate-data: ${b64('admin.crt')}`, `    client-key-data: ${b64('admin.key')}`]
    : 'token' in user ? [`    token: ${user.token}`]
      : [`    client-certificate-data: ${pem64(user.certificatePem)}`, `    client-key-data: ${pem64(user.privateKeyPem)}`];
  writeFileSync(file, [
    'apiVersion: v1', 'kind: Config',
    'clusters:', '- name: plat', '  cluster:', `    server: ${plat.url}`, `    certificate-authority-data: ${b64('ca.crt')}`,
    'users:', '- name: u', '  user:', ...creds,
    'contexts:', '- name: c', '  context: {cluster: plat, user: u}', 'current-context: c', '',
  ].join('\n'));
  return file;
}

/** The admin's kubeconfig for `plat`, in a fresh temp dir. */
export const adminKubeconfig = (plat: RunningPlat): string => writeKubeconfig(plat, path.join(tempDir(), 'admin.conf'), 'admin');

/** Polls `check` (bounded) until it returns something truthy, which it returns. */
export async function until<T>(check: () => Promise<T | undefined | null | false>, what: string, attempts = 100, everyMs = 100): Promise<T> {
  let last: unknown;
  for (let i = 0; i < attempts; i++) {
    try {
      const v = await check();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`timed out waiting for ${what}${last ? ` (last error: ${(last as Error).message})` : ''}`);
}

const LEASES = '/apis/coordination.platform/v1/namespaces/plat-system/leases';

/**
 * A Lease `name` held by someone else for an hour: a controller manager electing on it waits as a
 * standby until release() deletes it.
 */
export async function heldLease(plat: RunningPlat, name: string): Promise<{ release(): Promise<void> }> {
  const now = new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
  const held = await plat.admin.post(LEASES, {
    apiVersion: 'coordination.platform/v1', kind: 'Lease', metadata: { name },
    spec: { holderIdentity: 'someone-else', leaseDurationSeconds: 3600, acquireTime: now, renewTime: now },
  });
  assert.equal(held.status, 201, held.text);
  return {
    release: async () => {
      const gone = await plat.admin.delete(`${LEASES}/${name}`);
      assert.equal(gone.status, 200, gone.text);
    },
  };
}

/** plat's cluster CA (`<data-dir>/pki`) as a test credential that can issue client certificates. */
export function platCa(plat: RunningPlat): TestCredential {
  const pki = path.join(plat.dataDir, 'pki');
  const certificatePem = readFileSync(path.join(pki, 'ca.crt'), 'utf8');
  const privateKeyPem = readFileSync(path.join(pki, 'ca.key'), 'utf8');
  return { certificatePem, privateKeyPem, keyObject: createPrivateKey(privateKeyPem), der: new X509Certificate(certificatePem).raw };
}
