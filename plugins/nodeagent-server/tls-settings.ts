// The secure server's TLS settings from the configuration, as upstream's InitializeTLS reads them
// through cliflag.TLSVersion and cliflag.TLSCipherSuites: Go's version and cipher-suite names,
// mapped onto the OpenSSL names Node's TLS takes. Unknown names are start-up errors with upstream's
// messages; TLS 1.3 suites are accepted but not configurable (Go ignores them too), so they are
// left out of the OpenSSL list.
import { createSecureContext } from 'node:tls';

export type NodeTlsVersion = 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';

export const TLS_VERSIONS: Readonly<Record<string, NodeTlsVersion>> = {
  VersionTLS10: 'TLSv1', VersionTLS11: 'TLSv1.1', VersionTLS12: 'TLSv1.2', VersionTLS13: 'TLSv1.3',
};

/** Go's tls.CipherSuites() plus the two legacy CHACHA20 aliases cliflag keeps: name to OpenSSL name ('' for TLS 1.3). */
const SECURE: Readonly<Record<string, string>> = {
  TLS_AES_128_GCM_SHA256: '',
  TLS_AES_256_GCM_SHA384: '',
  TLS_CHACHA20_POLY1305_SHA256: '',
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA: 'ECDHE-ECDSA-AES128-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA: 'ECDHE-ECDSA-AES256-SHA',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA: 'ECDHE-RSA-AES128-SHA',
  TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA: 'ECDHE-RSA-AES256-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256: 'ECDHE-ECDSA-AES128-GCM-SHA256',
  TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384: 'ECDHE-ECDSA-AES256-GCM-SHA384',
  TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256: 'ECDHE-RSA-AES128-GCM-SHA256',
  TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384: 'ECDHE-RSA-AES256-GCM-SHA384',
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-ECDSA-CHACHA20-POLY1305',
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-RSA-CHACHA20-POLY1305',
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305: 'ECDHE-ECDSA-CHACHA20-POLY1305',
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305: 'ECDHE-RSA-CHACHA20-POLY1305',
};

/** Go's tls.InsecureCipherSuites(): accepted, logged as insecure. */
const INSECURE: Readonly<Record<string, string>> = {
  TLS_RSA_WITH_RC4_128_SHA: 'RC4-SHA',
  TLS_RSA_WITH_3DES_EDE_CBC_SHA: 'DES-CBC3-SHA',
  TLS_RSA_WITH_AES_128_CBC_SHA: 'AES128-SHA',
  TLS_RSA_WITH_AES_256_CBC_SHA: 'AES256-SHA',
  TLS_RSA_WITH_AES_128_CBC_SHA256: 'AES128-SHA256',
  TLS_RSA_WITH_AES_128_GCM_SHA256: 'AES128-GCM-SHA256',
  TLS_RSA_WITH_AES_256_GCM_SHA384: 'AES256-GCM-SHA384',
  TLS_ECDHE_ECDSA_WITH_RC4_128_SHA: 'ECDHE-ECDSA-RC4-SHA',
  TLS_ECDHE_RSA_WITH_RC4_128_SHA: 'ECDHE-RSA-RC4-SHA',
  TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA: 'ECDHE-RSA-DES-CBC3-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256: 'ECDHE-ECDSA-AES128-SHA256',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256: 'ECDHE-RSA-AES128-SHA256',
};

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
  const openssl: string[] = [];
  const insecure: string[] = [];
  for (const name of names) {
    const secure = SECURE[name];
    const weak = INSECURE[name];
    if (secure === undefined && weak === undefined) throw new TlsSettingsError(`Cipher suite ${name} not supported or doesn't exist`);
    if (weak !== undefined) insecure.push(name);
    const o = secure ?? weak!;
    if (o && !openssl.includes(o)) openssl.push(o);
  }
  const settings: TlsSettings = {
    minVersion: version, insecure, suitesIgnored: version === 'TLSv1.3' && names.length > 0,
    // Only TLS 1.3 names given: TLS 1.2 keeps the runtime's defaults, as Go's would.
    ...(openssl.length ? { ciphers: openssl.join(':') } : {}),
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
