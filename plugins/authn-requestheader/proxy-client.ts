// --proxy-client-cert-file / --proxy-client-key-file: the certificate plat presents when it calls
// out on a user's behalf (aggregated servers, admission webhooks), so the callee's own
// request-header authenticator trusts the identity headers plat sends. Loaded and checked at
// start-up so a broken pair fails the boot, not the first call; handed out per host.
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Host } from '../../core/host.js';
import { StartupError } from '../../core/plugin.js';

export interface ProxyClientCredentials {
  /** PEM text as read, leaf first (may carry intermediates). */
  readonly certPem: string;
  readonly keyPem: string;
  readonly certificate: X509Certificate;
  readonly privateKey: KeyObject;
}

const credentials = new WeakMap<Host, ProxyClientCredentials>();

/** The proxy client certificate and key of this host, when both flags were given. */
export function getProxyClientCredentials(host: Host): ProxyClientCredentials | undefined {
  return credentials.get(host);
}

export function setProxyClientCredentials(host: Host, creds: ProxyClientCredentials): void {
  credentials.set(host, creds);
}

/** Reads and checks the pair; undefined when neither file is given. */
export function loadProxyClientCredentials(certFile: string, keyFile: string): ProxyClientCredentials | undefined {
  if (!certFile && !keyFile) return undefined;
  if (!certFile || !keyFile) {
    const [given, missing] = certFile ? ['--proxy-client-cert-file', '--proxy-client-key-file'] : ['--proxy-client-key-file', '--proxy-client-cert-file'];
    throw new StartupError(`${given} is set but ${missing} is not: the proxy client certificate and key are given together`);
  }
  const certPem = read(certFile, 'proxy client certificate');
  const keyPem = read(keyFile, 'proxy client key');
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(certPem);
  } catch (err) {
    throw new StartupError(`unable to load proxy client certificate "${certFile}": ${(err as Error).message}`);
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(keyPem);
  } catch (err) {
    throw new StartupError(`unable to load proxy client key "${keyFile}": ${(err as Error).message}`);
  }
  if (!certificate.checkPrivateKey(privateKey)) {
    throw new StartupError(`proxy client certificate "${certFile}" and key "${keyFile}": private key does not match public key`);
  }
  return { certPem, keyPem, certificate, privateKey };
}

function read(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw new StartupError(`unable to load ${what} "${path}": ${(err as Error).message}`);
  }
}
