// What node keeps on an AbortSignal for the signals AbortSignal.any derived from it: its internal
// kDependantSignals set, which has no public API. On a node that no longer keeps it, 0.

/** The size of `signal`'s dependant-signal set, 0 if none. */
export function abortDependants(signal: AbortSignal): number {
  const key = Object.getOwnPropertySymbols(signal).find((s) => s.description === 'kDependantSignals');
  const set = key === undefined ? undefined : (signal as unknown as Record<symbol, Set<unknown> | undefined>)[key];
  return set?.size ?? 0;
}
