// tlsCipherSuites and tlsMinVersion take Go's names (component-base cli/flag: the suites of Go's
// tls.CipherSuites() and tls.InsecureCipherSuites(), plus two legacy aliases; VersionTLS10..13).
// Node's TLS takes OpenSSL's names, so each Go name maps to the OpenSSL cipher it denotes. TLS 1.3
// suites are accepted by name but are not configurable (Go ignores them in the list, as does node
// when they are passed as `ciphers`).

// Looked up with the name a user gave: without a prototype, so `toString` or `constructor` is no
// version (Object.prototype's members would pass for one and reach the TLS library).
export const TLS_VERSIONS: Readonly<Record<string, 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3'>> = Object.freeze(Object.assign(Object.create(null) as object, {
  VersionTLS10: 'TLSv1',
  VersionTLS11: 'TLSv1.1',
  VersionTLS12: 'TLSv1.2',
  VersionTLS13: 'TLSv1.3',
} as const));

const TLS13 = ['TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256'];

/** Go name → OpenSSL name; TLS 1.3 suites map to their own (IANA) names. Without a prototype, as TLS_VERSIONS. */
export const CIPHER_SUITES: Readonly<Record<string, string>> = Object.freeze(Object.assign(Object.create(null) as object, {
  // tls.CipherSuites()
  TLS_AES_128_GCM_SHA256: 'TLS_AES_128_GCM_SHA256',
  TLS_AES_256_GCM_SHA384: 'TLS_AES_256_GCM_SHA384',
  TLS_CHACHA20_POLY1305_SHA256: 'TLS_CHACHA20_POLY1305_SHA256',
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA: 'ECDHE-ECDSA-AES128-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA: 'ECDHE-ECDSA-AES256-SHA',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA: 'ECDHE-RSA-AES128-SHA',
  TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA: 'ECDHE-RSA-AES256-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256: 'ECDHE-ECDSA-AES128-GCM-SHA256',
  TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384: 'ECDHE-ECDSA-AES256-GCM-SHA384',
  TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256: 'ECDHE-RSA-AES128-GCM-SHA256',
  TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384: 'ECDHE-RSA-AES256-GCM-SHA384',
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-RSA-CHACHA20-POLY1305',
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-ECDSA-CHACHA20-POLY1305',
  // legacy names component-base still accepts
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305: 'ECDHE-RSA-CHACHA20-POLY1305',
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305: 'ECDHE-ECDSA-CHACHA20-POLY1305',
  // tls.InsecureCipherSuites()
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
}));

/**
 * What Go's server negotiates below TLS 1.3 when no suites are configured (crypto/tls's default
 * list since Go 1.23, which upstream is built with: ECDHE only, AEADs first, no CBC-SHA256, no RSA
 * key exchange, no 3DES or RC4). OpenSSL's own default adds RSA key exchange (no forward secrecy),
 * DHE and the CBC-SHA256/384 suites.
 */
export const GO_DEFAULT_CIPHER_SUITES: readonly string[] = [
  'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256', 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
  'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384', 'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384',
  'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256', 'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256',
  'TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA', 'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA',
  'TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA', 'TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA',
];

/** Go's insecure suites: using one is logged ("Use of insecure cipher detected."), not refused. */
export const INSECURE_CIPHER_SUITES: ReadonlySet<string> = new Set(Object.keys(CIPHER_SUITES).slice(Object.keys(CIPHER_SUITES).indexOf('TLS_RSA_WITH_RC4_128_SHA')));

/** cliflag.TLSCipherSuites' error for the first unknown name, or undefined. */
export function cipherSuiteError(names: readonly string[]): string | undefined {
  const bad = names.find((n) => CIPHER_SUITES[n] === undefined);
  return bad === undefined ? undefined : `Cipher suite ${bad} not supported or doesn't exist`;
}

/**
 * crypto/tls's cipherSuitesPreferenceOrder (Go 1.23): its server walks this list, filtered by the
 * configured suites, so the order the flag gives them in is ignored (a CBC suite listed first does
 * not beat AES-GCM). The legacy ChaCha names are the same suites.
 */
const GO_PREFERENCE_ORDER: readonly string[] = [
  'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256', 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
  'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384', 'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384',
  'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256', 'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256',
  'TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA', 'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA',
  'TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA', 'TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA',
  'TLS_RSA_WITH_AES_128_GCM_SHA256', 'TLS_RSA_WITH_AES_256_GCM_SHA384',
  'TLS_RSA_WITH_AES_128_CBC_SHA', 'TLS_RSA_WITH_AES_256_CBC_SHA',
  'TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA', 'TLS_RSA_WITH_3DES_EDE_CBC_SHA',
  'TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256', 'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256', 'TLS_RSA_WITH_AES_128_CBC_SHA256',
  'TLS_ECDHE_ECDSA_WITH_RC4_128_SHA', 'TLS_ECDHE_RSA_WITH_RC4_128_SHA', 'TLS_RSA_WITH_RC4_128_SHA',
];
const preferenceRank = (name: string) => GO_PREFERENCE_ORDER.indexOf(name.endsWith('_CHACHA20_POLY1305') ? `${name}_SHA256` : name);

/**
 * Go 1.23's defaultCipherSuitesTLS13 in its order of preference, as OpenSSL's TLS 1.3 list (whose
 * own default puts AES-256 first); with the server's preference and OpenSSL's PRIORITIZE_CHACHA,
 * ChaCha20 still wins for a client that lists it first, as Go's aesgcmPreferred.
 */
export const TLS13_CIPHERSUITES = TLS13.join(':');

/**
 * The OpenSSL `ciphers` string for node:tls, in Go's order of preference whatever the order given
 * (TLS 1.3 names dropped: not configurable); undefined for the runtime defaults.
 */
export function opensslCiphers(names: readonly string[] | undefined): string | undefined {
  if (!names || names.length === 0) return undefined;
  const sorted = names.filter((n) => !TLS13.includes(n) && CIPHER_SUITES[n] !== undefined).sort((a, b) => preferenceRank(a) - preferenceRank(b));
  const list = [...new Set(sorted.map((n) => CIPHER_SUITES[n]!))];
  return list.length ? list.join(':') : undefined;
}
