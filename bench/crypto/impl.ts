// The contract between the measuring loop and each implementation under test: which operations a
// row can measure, and what an implementation hands back for one of them.
import type { BenchInputs } from './inputs.js';

export const OPS = ['parse', 'verify', 'pem-validate', 'sign', 'issue'] as const;
export type Op = (typeof OPS)[number];

/** CSR key = CA key type in every row. */
export const KEY_TYPES = ['p256', 'ed25519'] as const;
export type BenchKeyType = (typeof KEY_TYPES)[number];

export const KEY_TYPE_LABEL: Readonly<Record<BenchKeyType, string>> = { p256: 'P-256', ed25519: 'Ed25519' };

/** One operation ready to time: everything `run` needs was made before, untimed. */
export interface Prepared {
  /** One call; sync, or a promise the loop awaits. */
  run: () => unknown;
  /** What did the work, for the table's "backend" column. */
  backend: string;
  /** Operations done by one call (a batch entry point signs many digests per call). Default 1. */
  opsPerCall?: number;
}

/** Why a row has no figure (a wrapper not built yet, a library not installed, a self-check that failed). */
export interface Unavailable {
  unavailable: string;
}

export type Preparation = Prepared | Unavailable;

export interface BenchImpl {
  readonly name: string;
  /** Whether (op, key type) is a row for this implementation at all. */
  supports(op: Op, keyType: BenchKeyType): boolean;
  /**
   * Imports, keys and parsed inputs for one row, then one checked call (the output must be right,
   * e.g. an issued certificate verifies under the CA), all untimed. Never throws: a failure is
   * `{ unavailable }`.
   */
  prepare(op: Op, inputs: BenchInputs): Promise<Preparation>;
}

export function isUnavailable<T extends object>(p: T | Unavailable): p is Unavailable {
  return 'unavailable' in p;
}

/** Runs `make`, turning any exception into an Unavailable with its message. */
export async function guarded(make: () => Promise<Prepared> | Prepared): Promise<Preparation> {
  try {
    return await make();
  } catch (e) {
    return { unavailable: e instanceof Error ? e.message.split('\n')[0]! : String(e) };
  }
}
