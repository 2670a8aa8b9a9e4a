// `plat all`: before configure, make a CA under <data-dir>/pki, a serving certificate and an admin
// client certificate (group system:masters) from it, and point the TLS and client-CA flags at them
// (and the cluster signing flags, when a signing plugin defines them, at the same CA); let the
// embedded controller manager reach the API server in memory with a certificate of its own; once
// serving, write <data-dir>/admin.conf, the kubeconfig kubectl and `plat csr` use.
import { X509Certificate } from 'node:crypto';
import path from 'node:path';
import { provideInProcessConnection } from '../../core/client/in-process.js';
import type { Flags } from '../../core/flags/flag-set.js';
import { syscallErrorText } from '../../core/go-os-error.js';
import type { Host } from '../../core/host.js';
import { StartupError } from '../../core/plugin.js';
import {
  caFiles, ensureCa, ensureClientCertificate, ensureServingFromCa, ensureSigningKey, pairFiles, PkiError, signingKeyFiles, writeFileIfChanged,
} from '../../core/pki/index.js';
import { getApiServer } from '../../plugins/apiserver/index.js';
import { recordAllInOne } from './all-summary.js';
import os from 'node:os';

const b64 = (s: string) => Buffer.from(s).toString('base64');

export function adminKubeconfig(server: string, caPem: string, certPem: string, keyPem: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: plat',
    '  cluster:',
    `    server: ${server}`,
    `    certificate-authority-data: ${b64(caPem)}`,
    'users:',
    '- name: plat-admin',
    '  user:',
    `    client-certificate-data: ${b64(certPem)}`,
    `    client-key-data: ${b64(keyPem)}`,
    'contexts:',
    '- name: plat-admin@plat',
    '  context:',
    '    cluster: plat',
    '    user: plat-admin',
    'current-context: plat-admin@plat',
    '',
  ].join('\n');
}

/** Upstream clusters conventionally use https://kubernetes.default.svc.cluster.local. */
export const ALL_IN_ONE_ISSUER = 'https://platform.default.svc.cluster.local';

const SERVING_BASE_NAME = 'apiserver';
/**
 * The embedded controller manager's credential: upstream's user, so that the audit log and
 * SubjectAccessReviews tell its writes from the admin's. In system:masters, as the admin: plat
 * all's controllers include third-party signers, which no bootstrap role can foresee.
 */
const CONTROLLER_MANAGER_IDENTITY = { commonName: 'system:kube-controller-manager', organizations: ['system:masters'], baseName: 'controller-manager' };
const SERVICE_ACCOUNT_KEY_BASE_NAME = 'sa';

/** The files prepareAllInOne makes under `pki` (unless told otherwise), by the flag that points at each. */
function allInOneFiles(pki: string) {
  const ca = caFiles(pki);
  const serving = pairFiles(pki, SERVING_BASE_NAME);
  const sa = signingKeyFiles(pki, SERVICE_ACCOUNT_KEY_BASE_NAME);
  return {
    'cert-dir': pki,
    'tls-cert-file': serving.certFile,
    'tls-private-key-file': serving.keyFile,
    'client-ca-file': ca.certFile,
    'service-account-key-file': sa.publicKeyFile,
    'service-account-signing-key-file': sa.keyFile,
    'cluster-signing-cert-file': ca.certFile,
    'cluster-signing-key-file': ca.keyFile,
    'service-account-private-key-file': sa.keyFile,
    'root-ca-file': ca.certFile,
  };
}

/** What `plat all --help` shows as the defaults of the flags prepareAllInOne points at what it makes (unless given). */
export const ALL_IN_ONE_HELP_DEFAULTS: Readonly<Record<string, unknown>> = (() => {
  const files = allInOneFiles(path.posix.join('<data-dir>', 'pki'));
  return { ...files, 'service-account-issuer': [ALL_IN_ONE_ISSUER], 'service-account-key-file': [files['service-account-key-file']] };
})();

/**
 * The flags `plat all` points at what prepareAllInOne makes under --data-dir (each unless the
 * operator set it), settled before the flags are logged, so that their `FLAG:` lines show the
 * paths in use rather than the API server's defaults. Paths only: nothing is made here.
 */
export function settleAllInOne(flags: Flags): void {
  const pki = path.join(path.resolve(flags.get<string>('data-dir')), 'pki');
  const files = allInOneFiles(pki);
  const set: Record<string, string> = {};
  // --cert-dir is where the serving pair lives (upstream's generated pair goes there): plat all's,
  // signed by its CA, goes there when the operator names one.
  const serving = pairFiles(flags.isSet('cert-dir') ? path.resolve(flags.get<string>('cert-dir')) : pki, SERVING_BASE_NAME);
  if (!flags.isSet('tls-cert-file') && !flags.isSet('tls-private-key-file')) {
    set['tls-cert-file'] = serving.certFile;
    set['tls-private-key-file'] = serving.keyFile;
  }
  if (!flags.isSet('client-ca-file')) set['client-ca-file'] = files['client-ca-file'];
  if (!flags.isSet('cert-dir')) set['cert-dir'] = files['cert-dir'];
  // Service-account tokens work out of the box: a signing key of its own, one issuer. Each default
  // stands in for its flag alone, so an operator's issuer keeps plat's key (and the reverse); the
  // verifying keys default to the operator's signing key when that is theirs.
  if (!flags.isSet('service-account-issuer')) set['service-account-issuer'] = ALL_IN_ONE_ISSUER;
  const ownSigningKey = flags.isSet('service-account-signing-key-file') ? flags.get<string>('service-account-signing-key-file') : undefined;
  if (!ownSigningKey) set['service-account-signing-key-file'] = files['service-account-signing-key-file'];
  if (!flags.isSet('service-account-key-file')) set['service-account-key-file'] = ownSigningKey ?? files['service-account-key-file'];
  // The controllers sign with the all-in-one CA unless the operator chose signing files.
  const defined = (name: string) => flags.specs().some((s) => s.name === name && s.unsupported === undefined);
  const signingFiles = flags.specs().filter((s) => /^cluster-signing-.*-file$/.test(s.name)).map((s) => s.name);
  if (defined('cluster-signing-cert-file') && defined('cluster-signing-key-file') && signingFiles.every((f) => !flags.isSet(f))) {
    set['cluster-signing-cert-file'] = files['cluster-signing-cert-file'];
    set['cluster-signing-key-file'] = files['cluster-signing-key-file'];
  }
  // Legacy Secret-based tokens work too, as kubeadm sets them up: the tokens controller signs with
  // the issuer's key in use (which the API server verifies unless told otherwise) and puts the CA
  // clients trust the API server by into each token Secret's ca.crt.
  if (defined('service-account-private-key-file') && !flags.isSet('service-account-private-key-file')) {
    set['service-account-private-key-file'] = ownSigningKey ?? files['service-account-private-key-file'];
  }
  // Only while the serving pair is plat's own, signed by that CA.
  if (defined('root-ca-file') && !flags.isSet('root-ca-file') && !flags.isSet('tls-cert-file')) set['root-ca-file'] = files['root-ca-file'];
  flags.setFromConfig(set, 'plat all', 'profile');
}

/** Makes what settleAllInOne pointed the flags at: the CA, the serving pair, the clients' certificates, the signing key. */
export async function prepareAllInOne(host: Host, flags: Flags): Promise<void> {
  const dataDir = path.resolve(flags.get<string>('data-dir'));
  const pki = path.join(dataDir, 'pki');
  // A CA that cannot be used or a data dir that cannot be written is the operator's to fix: said
  // plainly, as the other start-up refusals are, not as a crash with a stack trace.
  const plainly = (e: unknown): never => {
    if (e instanceof PkiError) throw new StartupError(e.message);
    if (typeof (e as NodeJS.ErrnoException | null)?.code === 'string') throw new StartupError(`--data-dir ${dataDir}: ${syscallErrorText(e)}`);
    throw e;
  };
  const ca = await ensureCa(pki, 'plat-ca').catch(plainly);
  const hosts = [...new Set(['localhost', '127.0.0.1', flags.get<string>('bind-address'), os.hostname()].filter((h) => h && h !== '0.0.0.0' && h !== '::'))];
  // In --cert-dir, settled to <data-dir>/pki unless the operator named one.
  await ensureServingFromCa(ca, path.resolve(flags.get<string>('cert-dir')), { hosts, baseName: SERVING_BASE_NAME }).catch(plainly);
  const admin = await ensureClientCertificate(ca, pki, { commonName: 'plat-admin', organizations: ['system:masters'], baseName: 'admin' }).catch(plainly);
  const controllers = await ensureClientCertificate(ca, pki, CONTROLLER_MANAGER_IDENTITY).catch(plainly);
  if (!flags.isSetByOperator('service-account-signing-key-file')) await ensureSigningKey(pki, SERVICE_ACCOUNT_KEY_BASE_NAME).catch(plainly);

  // The embedded controllers reach the API server in memory (core/server/in-process.ts), presenting
  // their certificate, which the API server's authenticators verify as they would over TLS.
  const controllersChain = [Buffer.from(new X509Certificate(controllers.certificatePem).raw)];
  provideInProcessConnection(host, () => {
    const api = getApiServer(host);
    return api && {
      server: new URL(api.url), ca: ca.certificatePem, clientCert: controllers.certificatePem, clientKey: controllers.privateKeyPem,
      dial: () => api.dial(controllersChain),
    };
  });

  host.hooks.ready.tapPromise('PlatAllInOne', async () => {
    const api = getApiServer(host);
    if (!api) return;
    const file = path.join(dataDir, 'admin.conf');
    await writeFileIfChanged(file, adminKubeconfig(api.url, ca.certificatePem, admin.certificatePem, admin.privateKeyPem), 0o600).catch(plainly);
    recordAllInOne(host, { url: api.url, dataDir, kubeconfig: file });
  });
}
