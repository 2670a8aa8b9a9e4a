// Running the signing controller against a real plat: a controller-manager host booted from the
// csrsigning plugins (flags, config file and all, as the controller manager boots them), its
// `csrsigning` controller built with a ControllerContext of our own (the admin's connection,
// shared informers), then the informers started. Plus CSR helpers: fresh keys and requests,
// approval through the /approval subresource, and bounded waits.
import assert from 'node:assert/strict';
import type { KeyObject } from 'node:crypto';
import { X509Certificate } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { boot, type Booted, type Profile } from '../../core/boot.js';
import { RestClient } from '../../core/client/rest-client.js';
import { SharedInformers } from '../../core/controller/shared-informers.js';
import { createCsr, generateKeyPair, type KeyType } from '../../core/crypto/index.js';
import { goQuote } from '../../core/go-quote.js';
import type { Host } from '../../core/host.js';
import { MapRegistry, type ControllerContext, type Runnable } from '../../core/lifecycle.js';
import { createLogger } from '../../core/log.js';
import type { Plugin } from '../../core/plugin.js';
import { CONTROLLER_NAME, ClusterSigner, CsrSigningController, SigningController, type SigningControllerOptions } from '../../plugins/csrsigning/index.js';
import { signingControllerStarting } from '../../plugins/csrsigning/signing-controller-start.js';
import type { Client, RunningPlat } from '../helpers/plat.js';
import { tempDir } from '../helpers/plat.js';
import { adminConnection } from '../controller/support.js';

export const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';

export const controllerManagerProfile = (plugins: readonly Plugin[] = []): Profile => ({
  role: 'controller-manager', description: 'csrsigning under test', plugins: [CsrSigningController, ClusterSigner, ...plugins],
});

/** A log that tests can wait on. */
export class Logs {
  readonly lines: string[] = [];
  readonly logger = createLogger({ verbosity: 4, write: (l) => this.lines.push(l) });
  count(text: string): number { return this.lines.filter((l) => l.includes(text)).length; }
  has(text: string): boolean { return this.count(text) > 0; }
  /** dynamiccertificates' V(2) line for new content of `name` ('Loaded a new cert/key pair', ...): how many. */
  loads(message: string, name: string): number {
    const line = `] ${message} name=${goQuote(name)}`;
    return this.lines.filter((l) => l.endsWith(line)).length;
  }
}

/** Boots the controller-manager host (no controller running); throws the StartupError boot throws. */
export async function bootSigning(args: string[], o: { cwd?: string; plugins?: readonly Plugin[]; logs?: Logs } = {}): Promise<Booted & { logs: Logs }> {
  const logs = o.logs ?? new Logs();
  const booted = await boot({ profile: controllerManagerProfile(o.plugins), argv: args, cwd: o.cwd ?? tempDir(), logger: logs.logger, version: '0.0.0-test' });
  return { ...booted, logs };
}

/**
 * What the controller manager does first when it builds the csrsigning controller once it leads
 * (the controller's factory): the cluster CA's files are read then, not at boot. Throws what that
 * build throws.
 */
export function buildClusterCas({ host, logs }: { host: Host; logs: Logs }): void {
  signingControllerStarting(host.hooks, logs.logger.child(CONTROLLER_NAME));
}

/** Boots with `args`, then builds the cluster CA as leading would; the error that build throws. */
export async function clusterCaRefusal(args: string[]): Promise<Error> {
  const booted = await bootSigning(args);
  try {
    buildClusterCas(booted);
  } catch (e) {
    assert.ok(e instanceof Error, String(e));
    return e;
  } finally {
    await booted.host.hooks.shutdown.promise();
  }
  throw new Error(`the cluster CA was built with ${args.join(' ')}`);
}

export interface RunningSigning {
  readonly host: Host;
  readonly logs: Logs;
  stop(): Promise<void>;
}

/** Boots the host and runs its csrsigning controller against `plat` until stop(); `signing` builds the controller with those options. */
export async function startSigning(plat: RunningPlat, args: string[],
  o: { cwd?: string; plugins?: readonly Plugin[]; signing?: SigningControllerOptions } = {}): Promise<RunningSigning> {
  const { host, flags, logs } = await bootSigning(args, o);
  const registry = new MapRegistry<(ctx: ControllerContext) => Runnable>();
  host.hooks.controllers.call(registry);
  // No client-side rate limit: the test measures the controller, not --plat-api-qps.
  const client = new RestClient(adminConnection(plat), { qps: 0 });
  const informers = new SharedInformers(client, { logger: logs.logger });
  const make = o.signing ? (ctx: ControllerContext) => new SigningController(ctx, o.signing) : registry.get('certificatesigningrequest-signing-controller')!;
  const controller = make({ client, informers, logger: logs.logger.child('csrsigning'), flags, hooks: host.hooks });
  const stop = new AbortController();
  informers.start(stop.signal);
  const running = controller.run(stop.signal);
  return {
    host, logs,
    stop: async () => {
      stop.abort();
      await running;
      await informers.stopped();
      await host.hooks.shutdown.promise();
      client.close();
    },
  };
}

export interface TestCsr { readonly pem: string; readonly key: KeyObject }

export function makeCsr(o: { cn: string; orgs?: string[]; dns?: string[]; ips?: string[]; emails?: string[]; uris?: string[]; keyType?: KeyType }): TestCsr {
  const key = generateKeyPair(o.keyType ?? 'ecdsa-p256').keyObject;
  const pem = createCsr({
    subject: { commonName: o.cn, organizations: o.orgs ?? [] }, privateKey: key,
    dnsNames: o.dns, ipAddresses: o.ips, emailAddresses: o.emails, uris: o.uris,
  });
  return { pem, key };
}

export function csrBody(name: string, csr: TestCsr, signerName: string, usages: string[], expirationSeconds?: number): unknown {
  return {
    apiVersion: 'certificates.platform/v1', kind: 'CertificateSigningRequest', metadata: { name },
    spec: { request: Buffer.from(csr.pem).toString('base64'), signerName, usages, ...(expirationSeconds !== undefined ? { expirationSeconds } : {}) },
  };
}

export async function createCsrObject(admin: Client, body: unknown): Promise<void> {
  const r = await admin.post(CSRS, body);
  if (r.status !== 201) throw new Error(`create: ${r.status} ${r.text}`);
}

async function decide(admin: Client, name: string, type: 'Approved' | 'Denied'): Promise<void> {
  // As kubectl certificate approve does: read, append the condition, PUT to /approval.
  const csr = await getCsr(admin, name);
  csr.status = { ...csr.status, conditions: [...(csr.status?.conditions ?? []), { type, status: 'True', reason: `Test${type}`, message: `${type.toLowerCase()} by the test` }] };
  const r = await admin.put(`${CSRS}/${name}/approval`, csr);
  if (r.status !== 200) throw new Error(`${type}: ${r.status} ${r.text}`);
}
export const approve = (admin: Client, name: string) => decide(admin, name, 'Approved');
export const deny = (admin: Client, name: string) => decide(admin, name, 'Denied');

/** Creates and approves; returns the moment just before approval. */
export async function submitApproved(admin: Client, name: string, csr: TestCsr, signerName: string, usages: string[], expirationSeconds?: number): Promise<number> {
  await createCsrObject(admin, csrBody(name, csr, signerName, usages, expirationSeconds));
  const t0 = Date.now();
  await approve(admin, name);
  return t0;
}

export async function getCsr(admin: Client, name: string): Promise<any> {
  const r = await admin.get(`${CSRS}/${name}`);
  if (r.status !== 200) throw new Error(`get ${name}: ${r.status} ${r.text}`);
  return r.json;
}

/** Polls until `done(csr)`; bounded (default 20 s). */
export async function waitForCsr(admin: Client, name: string, done: (csr: any) => boolean, what: string, attempts = 400): Promise<any> {
  for (let i = 0; i < attempts; i++) {
    const csr = await getCsr(admin, name);
    if (done(csr)) return csr;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${name}: ${what}`);
}

export const certificateOf = (csr: any): string => Buffer.from(csr.status?.certificate ?? '', 'base64').toString('utf8');
export const issued = (csr: any) => Boolean(csr.status?.certificate);
export const failedCondition = (csr: any) => (csr.status?.conditions ?? []).find((c: any) => c.type === 'Failed');

export async function waitForCertificate(admin: Client, name: string): Promise<{ csr: any; pem: string; x509: X509Certificate }> {
  const csr = await waitForCsr(admin, name, issued, 'a certificate');
  const pem = certificateOf(csr);
  return { csr, pem, x509: new X509Certificate(pem) };
}

/** Polls `check` until true; bounded. */
export async function until(check: () => boolean | Promise<boolean>, what: string, attempts = 400, everyMs = 50): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Writes `ca` as <dir>/<base>.crt and <dir>/<base>.key; returns the flag values. */
export function writeCaFiles(dir: string, ca: { certificatePem: string; privateKeyPem: string }, base = 'ca'): { certFile: string; keyFile: string } {
  const certFile = path.join(dir, `${base}.crt`);
  const keyFile = path.join(dir, `${base}.key`);
  writeFileSync(certFile, ca.certificatePem);
  writeFileSync(keyFile, ca.privateKeyPem, { mode: 0o600 });
  return { certFile, keyFile };
}
