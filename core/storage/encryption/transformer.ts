// Upstream's value.Transformer over plat's stored text. An encrypted value is stored as one JSON
// string: upstream's prefixes (`k8s:enc:aescbc:v1:key1:`) followed by the base64 of upstream's
// binary part (IV or nonce, then the ciphertext), since a JSON record cannot hold raw bytes. Each
// layer sees what follows the prefixes already matched; the ciphers decode the base64 strictly.
import { aggregate } from '../../aggregate.js';
import { thrownMessage } from '../../thrown-message.js';

export interface Transformer {
  /** The plaintext (JSON text) of `data`; throws with upstream's message when it cannot be read. */
  fromStorage(data: string, authenticatedData: Buffer): string;
  /** `plain` (JSON text) as stored, without this layer's own prefix. */
  toStorage(plain: string, authenticatedData: Buffer): string;
}

/** RecordTransformation: one read (`from_storage`) or write (`to_storage`) by the transformer of `prefix`. */
export type RecordTransformation = (type: 'from_storage' | 'to_storage', prefix: string, seconds: number, ok: boolean) => void;

export const secondsSince = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e9;

export interface PrefixTransformer {
  readonly prefix: string;
  readonly transformer: Transformer;
}

/** Upstream's errors.Reduce(NewAggregate(errs)) as an error. */
export const aggregateError = (errors: readonly unknown[]): Error => new Error(aggregate(errors.map(thrownMessage)));

/**
 * Upstream's prefixTransformers: writes with the first, reads with every one whose prefix matches,
 * in order, a failure not ending the search (two entries of one provider share a prefix while a key
 * is rotated); nothing matching is `noMatch`.
 */
export class PrefixTransformers implements Transformer {
  constructor(private readonly transformers: readonly PrefixTransformer[], private readonly noMatch: string) {
    if (transformers.length === 0) throw new RangeError('at least one transformer is needed');
  }

  fromStorage(data: string, authenticatedData: Buffer): string {
    return this.fromStorageAt(data, authenticatedData).text;
  }

  /**
   * fromStorage, and which transformer read it: upstream's `stale` is `index !== 0` (not the one
   * writes use). Each attempt is recorded under its prefix, as prefixTransformers does.
   */
  fromStorageAt(data: string, authenticatedData: Buffer, record?: RecordTransformation): { text: string; index: number } {
    const start = process.hrtime.bigint();
    const errors: unknown[] = [];
    for (const [index, { prefix, transformer }] of this.transformers.entries()) {
      if (!data.startsWith(prefix)) continue;
      try {
        const text = transformer.fromStorage(data.slice(prefix.length), authenticatedData);
        record?.('from_storage', prefix, secondsSince(start), true);
        return { text, index };
      } catch (e) {
        record?.('from_storage', prefix, secondsSince(start), false);
        errors.push(e);
      }
    }
    if (errors.length > 0) throw aggregateError(errors);
    record?.('from_storage', 'unknown', secondsSince(start), false);
    throw new Error(this.noMatch);
  }

  toStorage(plain: string, authenticatedData: Buffer, record?: RecordTransformation): string {
    const start = process.hrtime.bigint();
    const first = this.transformers[0]!;
    const out = first.prefix + first.transformer.toStorage(plain, authenticatedData);
    record?.('to_storage', first.prefix, secondsSince(start), true);
    return out;
  }
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The bytes of standard, padded base64 (Buffer.from would skip what is not base64). */
export function strictBase64(data: string): Buffer {
  const bytes = Buffer.from(data, 'base64');
  if (data.length % 4 !== 0 || !BASE64.test(data) || bytes.toString('base64') !== data) {
    throw new Error('illegal base64 data in the stored value');
  }
  return bytes;
}
