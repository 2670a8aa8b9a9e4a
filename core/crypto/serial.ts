import { randomBytes } from 'node:crypto';

/**
 * A certificate serial drawn from [1, 2^128), as upstream's signer and client-go's certificate
 * helpers draw theirs (rand.Int(rand.Reader, 2^128)); zero, at odds of 2^-128, is drawn again.
 * Big-endian magnitude: the DER writer strips leading zeros and adds the sign octet.
 */
export function randomSerial(): Uint8Array {
  for (;;) {
    const s = new Uint8Array(randomBytes(16));
    if (s.some((b) => b !== 0)) return s;
  }
}
