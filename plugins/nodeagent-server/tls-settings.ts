// The secure server's TLS settings from the configuration, as upstream's InitializeTLS reads them
// through cliflag.TLSVersion and cliflag.TLSCipherSuites: Go's version and cipher-suite names,
// mapped onto the OpenSSL names Node's TLS takes. Unknown names are start-up errors with upstream's
// messages; TLS 1.3 suites are accepted but not configurable (Go ignores them too), so they are
// left out of the OpenSSL list. The name tables are core/nodeagent/tls-names.ts (validation uses them too).
import { createSecureContext } from 'node:tls';
import { cipherSuiteError, INSECURE_CIPHER_SUITES, opensslCiphers, TLS_VERSIONS } from '../../core/nodeagent/tls-names.js';

export type NodeTlsVersion = 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';

export interface TlsSettings {
  /** Always set: an empty tlsMinVersion is upstream's default, TLS 1.2. */
  readonly minVersion: NodeTlsVersion;
  /** OpenSSL cipher list for TLS 1.2 and below; absent means the runtime's defaults. */
  readonly ciphers?: string;
  /** The insecure suites asked for (logged at start-up, as upstream does). */
  readonly insecure: readonly string[];
  /** TLS 1.3 minimum with suites given: they cannot apply (upstream logs a warning). */
  readonly suitesIgnored: boolean;
}

export class TlsSettingsError extends Error {
  override readonly name = 'TlsSettingsError';
}

export function tlsSettings(minVersion: string, cipherSuites: readonly string[] | undefined): TlsSettings {
  const version = minVersion === '' ? 'TLSv1.2' : TLS_VERSIONS[minVersion];
  if (!version) throw new TlsSettingsError(`unknown tls version ${JSON.stringify(minVersion)}`);
  const names = cipherSuites ?? [];
  const unknown = cipherSuiteError(names);
  if (unknown) throw new TlsSettingsError(unknown);
  const insecure = names.filter((n) => INSECURE_CIPHER_SUITES.has(n));
  const ciphers = opensslCiphers(names);
  const settings: TlsSettings = {
    minVersion: version, insecure, suitesIgnored: version === 'TLSv1.3' && names.length > 0,
    // Only TLS 1.3 names given: TLS 1.2 keeps the runtime's defaults, as Go's would.
    ...(ciphers ? { ciphers } : {}),
  };
  if (settings.ciphers) {
    // This OpenSSL may lack a suite Go has (RC4, 3DES): refuse at start-up, not at the first handshake.
    try {
      createSecureContext({ ciphers: settings.ciphers, minVersion: 'TLSv1' });
    } catch (e) {
      throw new TlsSettingsError(`none of the cipher suites ${names.join(', ')} is available in this runtime's TLS library (${(e as Error).message})`);
    }
  }
  return settings;
}
