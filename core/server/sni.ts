// --tls-sni-cert-key: serving certificates chosen by the name a client asks for, as upstream's
// cliflag.NamedCertKey and dynamiccertificates.BuildNamedCertificates do it. Each value is
// "cert,key" or "cert,key:name1,name2"; without names, the certificate's own names are used (its
// CommonName unless an IP or not a DNS name, and its DNS SANs; never its IP SANs). Earlier values
// win over later ones, explicit names over a certificate's own. A client's SNI name is looked up
// exactly, then with its first label replaced by `*`; no match is the default certificate. A
// client that sends no SNI name is given the certificate mapped to the address it connected to, if
// any (upstream's GetConfigForClient): that is how explicitly listed IPs take effect.
import { isIP } from 'node:net';
import { parseCertificate } from '../crypto/certificate.js';
import { dns1123SubdomainErrors } from '../api/selectors/label-syntax.js';
import type { FlagSpec } from '../flags/types.js';
import type { Logger } from '../log.js';
import { StartupError } from '../plugin.js';
import { derived, type Changing } from '../tls/changing.js';
import { watchServingPair, type DynamicOptions } from '../tls/dynamic-content.js';
import { readPairFiles, servingPairProblem, type CertKeyPem } from './serving-pair.js';

export const SNI_FLAG = 'tls-sni-cert-key';

export interface NamedCertKey {
  readonly certFile: string;
  readonly keyFile: string;
  /** Explicit names; empty means the certificate's own. */
  readonly names: readonly string[];
}

/** cliflag.NamedCertKey.Set, with its error texts. */
export function parseNamedCertKey(value: string): NamedCertKey {
  const colon = value.indexOf(':');
  let names: string[] = [];
  let certKey = value.trim();
  if (colon >= 0) {
    certKey = value.slice(0, colon).trim();
    const list = value.slice(colon + 1).trim();
    if (list === '') throw new Error('empty names list is not allowed');
    names = list.split(',').map((n) => n.trim());
  }
  const files = certKey.split(',');
  if (files.length !== 2) throw new Error('expected comma separated certificate and key file paths');
  return { certFile: files[0]!.trim(), keyFile: files[1]!.trim(), names };
}

export function sniFlag(section: string, help: string): FlagSpec {
  return {
    name: SNI_FLAG, type: 'stringArray', section, help,
    validate: (v) => {
      for (const value of v as string[]) {
        try { parseNamedCertKey(value); } catch (e) { return (e as Error).message; }
      }
      return undefined;
    },
  };
}

/** getCertificateNames: the names a certificate answers for without explicit ones. */
export function certificateNames(certPem: string): string[] {
  const names: string[] = [];
  // Read as Go's pkix.Name does: node:crypto's subject text joins a multi-valued RDN (`CN=a + O=b`).
  const cert = parseCertificate(certPem);
  const cn = cert.commonName;
  const cnIsValidDomain = cn === '*' || dns1123SubdomainErrors(cn.replace(/^\*\./, '')).length === 0;
  // A CN that is an IP is left out: serving it by IP could end a connection meant for another name.
  if (cn !== '' && isIP(cn) === 0 && cnIsValidDomain) names.push(cn);
  names.push(...cert.dnsNames);
  return names;
}

/**
 * Reads and checks the files of one value. Failures are SecureServingOptions.ApplyTo's: NewDynamicSNIContentFromFiles
 * reads both files and runs tls.X509KeyPair, so Go's os error or the tls: text follows its wrapper.
 */
function loadSniPair(entry: NamedCertKey): CertKeyPem {
  const what = 'failed to load SNI cert and key';
  let pair: CertKeyPem;
  try {
    pair = readPairFiles(entry.certFile, entry.keyFile);
  } catch (e) {
    throw new StartupError(`${what}: ${(e as Error).message}`);
  }
  const problem = servingPairProblem(pair);
  if (problem) throw new StartupError(`${what}: ${problem.reason}`);
  // Its names are read by Go's rules below (BuildNamedCertificates' x509.ParseCertificate), which
  // may refuse what OpenSSL took.
  try { parseCertificate(pair.cert); } catch (e) { throw new StartupError(`parse error for SNI certificate: ${(e as Error).message}`); }
  return pair;
}

/** The certificates of the flag's values, by name; refuses a pair that cannot serve. */
export class SniCertificates {
  readonly #byName = new Map<string, CertKeyPem>();

  private constructor(entries: readonly { entry: NamedCertKey; pair: CertKeyPem }[]) {
    const explicit = new Map<string, CertKeyPem>();
    // Backwards, so that earlier values overwrite later ones.
    for (let i = entries.length - 1; i >= 0; i--) {
      const { entry, pair } = entries[i]!;
      for (const name of entry.names) explicit.set(name, pair);
      if (entry.names.length === 0) for (const name of certificateNames(pair.cert)) this.#byName.set(name, pair);
    }
    for (const [name, pair] of explicit) this.#byName.set(name, pair);
  }

  static load(values: readonly string[]): SniCertificates {
    return new SniCertificates(values.map((value) => {
      const entry = parseNamedCertKey(value);
      return { entry, pair: loadSniPair(entry) };
    }));
  }

  /**
   * As load, then each value's files are watched (upstream's "sni-serving-cert" contents): a new
   * usable pair replaces its value's, and the names are mapped again (a certificate's own names may
   * have changed). start() and stop() the watches.
   */
  static watch(values: readonly string[], log: Logger, o: DynamicOptions = {}): WatchedSni {
    const watched = values.map((value) => {
      const entry = parseNamedCertKey(value);
      return { entry, files: watchServingPair('sni-serving-cert', entry.certFile, entry.keyFile, () => loadSniPair(entry), log, o) };
    });
    const sni = derived(watched.map((w) => w.files), () => new SniCertificates(watched.map((w) => ({ entry: w.entry, pair: w.files.current() }))));
    return {
      ...sni,
      start: () => { for (const w of watched) w.files.start(); },
      stop: () => { for (const w of watched) w.files.stop(); },
    };
  }

  get size(): number { return this.#byName.size; }

  /** Go's getCertificate over NameToCertificate: exact (lowercased), then the first label as `*`. */
  pairFor(serverName: string): CertKeyPem | undefined {
    const name = serverName.toLowerCase();
    const exact = this.#byName.get(name);
    if (exact || name === '') return exact;
    const labels = name.split('.');
    labels[0] = '*';
    return this.#byName.get(labels.join('.'));
  }

  /** For a client that sent no SNI name: the pair mapped to the local address it connected to. */
  pairForLocalAddress(address: string): CertKeyPem | undefined {
    return this.#byName.get(address.replace(/^::ffff:/, ''));
  }
}

export interface WatchedSni extends Changing<SniCertificates> {
  start(): void;
  stop(): void;
}

