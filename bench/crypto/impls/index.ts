// Every in-process implementation, in the order rows are printed.
import type { BenchImpl } from '../impl.js';
import { asn1jsImpl } from './asn1js.js';
import { facadeImpl } from './facade.js';
import { nativeImpl } from './native.js';
import { nobleImpl } from './noble.js';
import { peculiarX509Impl } from './peculiar-x509.js';
import { wasmBatchImpl, wasmImpl } from './wasm.js';

export const IMPLS: readonly BenchImpl[] = [wasmImpl, wasmBatchImpl, facadeImpl, nativeImpl, peculiarX509Impl, nobleImpl, asn1jsImpl];

export function implByName(name: string): BenchImpl | undefined {
  return IMPLS.find((i) => i.name === name);
}
