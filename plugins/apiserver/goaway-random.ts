// The random source of a host's --goaway-chance filter (core/server/goaway.ts): Math.random unless
// a test plugin, applied before start, puts one in whose draws it knows.
import type { Host } from '../../core/host.js';

const sources = new WeakMap<Host, () => number>();

export function setGoawayRandom(host: Host, random: () => number): void {
  sources.set(host, random);
}

export const goawayRandom = (host: Host): (() => number) => sources.get(host) ?? Math.random;
