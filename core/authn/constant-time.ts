// Secret comparison in constant time for equal lengths (crypto.timingSafeEqual): how much of a
// guessed token matched must not show in the answer's timing. A length differs only for a token
// that is wrong whatever its bytes.
import { timingSafeEqual } from 'node:crypto';

export function equalConstantTime(a: string | Uint8Array, b: string | Uint8Array): boolean {
  const x = typeof a === 'string' ? Buffer.from(a) : a;
  const y = typeof b === 'string' ? Buffer.from(b) : b;
  return x.length === y.length && timingSafeEqual(x, y);
}
