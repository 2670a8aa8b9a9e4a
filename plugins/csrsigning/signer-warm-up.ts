// What a signer does before its first CSR, run when the signing controller starts that signer's
// lane: the cluster CA starts its signing pool's worker threads, whose start (a thread, core/crypto's
// modules, the WASM compile: ~0.2 s on an idle 2-core VM, 1-3 s at a load of 10) a fresh cluster's
// first CSR otherwise waited for. Registered by signerName for the process: the controller reaches
// a signer only through hooks.sign, whose tap functions are wrappers (core/running-tap.ts). Held as
// long as the signing function it belongs to (its host's tap), no longer.
type SignFn = (...args: never[]) => unknown;

const signFns = new Map<string, Set<WeakRef<SignFn>>>();
const warmUps = new WeakMap<SignFn, () => void>();

/** `warmUp` runs whenever a signing controller starts the lane of `signer`, while `sign` lives. */
export function registerWarmUp(signer: string, sign: SignFn, warmUp: () => void): void {
  warmUps.set(sign, warmUp);
  let set = signFns.get(signer);
  if (!set) signFns.set(signer, set = new Set());
  set.add(new WeakRef(sign));
}

/** Runs the live warm-ups of `signer`; the first to throw stops them, its error thrown. */
export function warmUpSigner(signer: string): void {
  const set = signFns.get(signer);
  if (!set) return;
  for (const ref of set) {
    const sign = ref.deref();
    if (!sign) {
      set.delete(ref);
      continue;
    }
    warmUps.get(sign)?.();
  }
  if (set.size === 0) signFns.delete(signer);
}
