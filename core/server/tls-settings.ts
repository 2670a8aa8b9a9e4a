// A secure server's TLS settings (the node agent's tlsMinVersion/tlsCipherSuites, the API server's
// and controller manager's --tls-min-version/--tls-cipher-suites), as upstream reads them
// through cliflag.TLSVersion and cliflag.TLSCipherSuites: Go's version and cipher-suite names,
// mapped onto the OpenSSL names Node's TLS takes. Unknown names are start-up errors with upstream's
// messages; TLS 1.3 suites are accepted but not configurable (Go ignores them too), so they are
// left out of the OpenSSL list. The name tables are tls-names.ts (the node agent's validation uses them too).
import { createSecureContext } from 'node:tls';
import type { FlagSpec } from '../flags/types.js';
import type { Logger } from '../log.js';
import { StartupError } from '../plugin.js';
import { cipherSuiteError, GO_DEFAULT_CIPHER_SUITES, INSECURE_CIPHER_SUITES, opensslCiphers, TLS13_CIPHERSUITES, TLS_VERSIONS } from './tls-names.js';

export type NodeTlsVersion = 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';

export interface TlsSettings {
  /** Always set: an empty tlsMinVersion is upstream's default, TLS 1.2. */
  readonly minVersion: NodeTlsVersion;
  /** OpenSSL cipher list: Go's TLS 1.3 suites, then for TLS 1.2 and below the suites given (in Go's order), else Go's defaults. */
  readonly ciphers: string;
  /** The insecure suites asked for (logged at start-up, as upstream does). */
  readonly insecure: readonly string[];
  /** TLS 1.3 minimum with suites given: they cannot apply (the kubelet says so at start-up). */
  readonly suitesIgnored: boolean;
  /**
   * A TLS 1.0 or 1.1 minimum: OpenSSL 3 (Node 20's) negotiates those versions only at security
   * level 0, so `ciphers` ends in `@SECLEVEL=0` for them to be served, as upstream (Go) serves them.
   * That level also accepts the keys and digests level 1 refuses, which start-up says.
   */
  readonly securityLevelLowered: boolean;
}

const OPENSSL_MAJOR = Number.parseInt(process.versions.openssl ?? '0', 10);

/** The start-up warning for a TLS 1.0/1.1 minimum, naming the setting. */
export function legacyVersionWarning(setting: string, version: string): string {
  return `${setting} ${version}: to serve TLS 1.0 and 1.1, this runtime's TLS library (OpenSSL ${process.versions.openssl ?? '?'}) runs at security level 0, `
    + 'which also accepts the short keys and weak digests its default level refuses; use VersionTLS12 unless clients need the older versions';
}

export class TlsSettingsError extends Error {
  override readonly name = 'TlsSettingsError';
  /** Which of the two settings is wrong. */
  constructor(readonly setting: 'minVersion' | 'cipherSuites', message: string) { super(message); }
}

export function tlsSettings(minVersion: string, cipherSuites: readonly string[] | undefined): TlsSettings {
  const version = minVersion === '' ? 'TLSv1.2' : TLS_VERSIONS[minVersion];
  if (!version) throw new TlsSettingsError('minVersion', `unknown tls version ${JSON.stringify(minVersion)}`);
  const names = cipherSuites ?? [];
  const unknown = cipherSuiteError(names);
  if (unknown) throw new TlsSettingsError('cipherSuites', unknown);
  const insecure = names.filter((n) => INSECURE_CIPHER_SUITES.has(n));
  const lowered = (version === 'TLSv1' || version === 'TLSv1.1') && OPENSSL_MAJOR >= 3;
  // None given, or only TLS 1.3 names: TLS 1.2 keeps Go's defaults, as upstream's server would.
  const listed = opensslCiphers(names) ?? opensslCiphers(GO_DEFAULT_CIPHER_SUITES)!;
  const ciphers = `${TLS13_CIPHERSUITES}:${listed}${lowered ? ':@SECLEVEL=0' : ''}`;
  const settings: TlsSettings = {
    minVersion: version, insecure, suitesIgnored: version === 'TLSv1.3' && names.length > 0, securityLevelLowered: lowered, ciphers,
  };
  if (names.length) {
    // This OpenSSL may lack a suite Go has (RC4, 3DES): refuse at start-up, not at the first handshake.
    try {
      createSecureContext({ ciphers: settings.ciphers, minVersion: 'TLSv1' });
    } catch (e) {
      throw new TlsSettingsError('cipherSuites', `none of the cipher suites ${names.join(', ')} is available in this runtime's TLS library (${(e as Error).message})`);
    }
  }
  return settings;
}

/** --tls-cipher-suites as the API server and controller manager define it (cliflag.TLSCipherSuites' check). */
export function cipherSuitesFlag(section: string, help: string): FlagSpec {
  return { name: 'tls-cipher-suites', type: 'strings', section, help, validate: (v) => cipherSuiteError(v as string[]) };
}

/**
 * The settings of --tls-min-version and --tls-cipher-suites, with the start-up lines of upstream's
 * SecureServingInfo.tlsConfig (--disable-http2-serving's among them); problems are StartupErrors.
 * Unlike the kubelet's, it says nothing of TLS 1.3 suites being ignored.
 */
export function servingTlsSettings(minVersion: string, cipherSuites: readonly string[], log: Logger, http2Disabled = false): TlsSettings {
  let s: TlsSettings;
  try {
    s = tlsSettings(minVersion, cipherSuites);
  } catch (e) {
    if (e instanceof TlsSettingsError) throw new StartupError(`--${e.setting === 'minVersion' ? 'tls-min-version' : 'tls-cipher-suites'}: ${e.message}`);
    throw e;
  }
  if (http2Disabled) log.info('Forcing use of http/1.1 only');
  for (const name of s.insecure) log.warn(`Use of insecure cipher '${name}' detected.`);
  if (s.securityLevelLowered) log.warn(legacyVersionWarning('--tls-min-version', minVersion));
  return s;
}
