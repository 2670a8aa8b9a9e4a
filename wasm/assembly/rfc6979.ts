// Deterministic ECDSA nonces, RFC 6979 section 3.2, with HMAC-SHA-256 over the P-256 order n
// (qlen = hlen = 256, so bits2int is a plain big-endian read and one HMAC output is one candidate).
// Constant-time except the candidate rejection: a candidate outside [1, n-1] (probability about
// 2^-32) costs two more HMACs. That branch reveals only that a rejected, unused value occurred.
import { hmacSha256, hmacSha256Parts } from './sha2';
import { rawFromBytes } from './p256-field';
import { N, nIsZero, nRawReduced, nToBytes } from './p256-scalar';

const K = memory.data(32);
const V = memory.data(32);
const SEED = memory.data(97);  // V || marker || int2octets(x) || bits2octets(h1)
const H = memory.data(32);     // bits2octets(h1) as raw limbs, then bytes
const ZERO = memory.data<u8>([0]);

/** k (raw little-endian limbs, 1 <= k < n) for private key `priv` and digest `h1` (32 bytes each). */
export function rfc6979Nonce(k: usize, priv: usize, h1: usize): void {
  // bits2octets(h1) = int2octets(bits2int(h1) mod n); one subtraction suffices as h1 < 2^256 < 2n.
  nRawReduced(H, h1);
  memory.fill(V, 0x01, 32);
  memory.fill(K, 0x00, 32);
  memory.copy(SEED, V, 32);
  memory.copy(SEED + 33, priv, 32);
  nToBytes(SEED + 65, H);
  store<u8>(SEED + 32, 0x00);
  hmacSha256(K, 32, SEED, 97, K);
  hmacSha256(K, 32, V, 32, V);
  memory.copy(SEED, V, 32);
  store<u8>(SEED + 32, 0x01);
  hmacSha256(K, 32, SEED, 97, K);
  hmacSha256(K, 32, V, 32, V);
  memory.fill(SEED, 0, 97); // the seed holds the private key: do not leave it in memory
  while (true) {
    hmacSha256(K, 32, V, 32, V);
    const below = rawFromBytes(k, V, N);
    if (below & ~nIsZero(k) & 1) break; // public event (see header)
    hmacSha256Parts(K, 32, V, 32, ZERO, 1, 0, 0, K);
    hmacSha256(K, 32, V, 32, V);
  }
}
