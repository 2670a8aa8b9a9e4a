// Which implementation serves each operation by default. The rule (issue 3): the fastest one
// measured by `plat bench crypto` on the development machine, per operation and key type; the
// figures that decided each choice are next to it. Every result says which backend did the work.

export type Backend = 'wasm' | 'node:crypto' | 'typescript' | '@noble/post-quantum';

export type Operation = 'parse' | 'pemValidate' | 'build' | 'verifyEd25519' | 'verifyP256' | 'signP256' | 'signEd25519';

export const DEFAULT_BACKENDS: Readonly<Record<Operation, Backend>> = {
  /** PEM + PKCS#10 parse: WASM ~5-8 µs vs TypeScript 11-124 µs (P-256's point check through node). */
  parse: 'wasm',
  /** status.certificate rules: WASM ~7 µs vs TypeScript + X509Certificate ~490 µs for two certificates. */
  pemValidate: 'wasm',
  /** TBSCertificate build: WASM ~3 µs vs TypeScript 15-20 µs. */
  build: 'wasm',
  /** Ed25519 CSR proof of possession: WASM ≈ node:crypto, and WASM needs no key import. */
  verifyEd25519: 'wasm',
  /**
   * P-256 proof of possession: WASM (u1*G + u2*Q with shared doublings, no final inversion)
   * ~9.4k/s vs node:crypto including the SPKI import ~6.4k/s.
   */
  verifyP256: 'wasm',
  /** CA signatures with P-256 keys: node:crypto ~43-48k/s vs WASM ~35k/s (~41k/s batched). */
  signP256: 'node:crypto',
  /** CA signatures with Ed25519 keys: node:crypto ~37k/s vs WASM ~28k/s. */
  signEd25519: 'node:crypto',
};

/** A summary per concern, for status output and benchmarks. */
export const CRYPTO_BACKEND = {
  pem: DEFAULT_BACKENDS.parse,
  der: DEFAULT_BACKENDS.parse,
  x509Build: DEFAULT_BACKENDS.build,
  sign: { p256: DEFAULT_BACKENDS.signP256, ed25519: DEFAULT_BACKENDS.signEd25519, other: 'node:crypto' },
  // ML-DSA: the only implementation here (node 20's OpenSSL 3.0 has none).
  verify: { p256: DEFAULT_BACKENDS.verifyP256, ed25519: DEFAULT_BACKENDS.verifyEd25519, mlDsa: '@noble/post-quantum', other: 'node:crypto' },
  keyGeneration: 'node:crypto',
} as const;
