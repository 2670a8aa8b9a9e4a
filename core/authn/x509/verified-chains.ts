// A keep-alive connection presents the same chain on every request, and core/server/peer.ts hands
// every request of a connection the same array. Verifying it again (parses and signatures are
// remembered already, certificate-cache.ts and verify.ts) still cost ~2–7 µs a request, spent
// reaching the same answer: the answer is a pure function of the chain's bytes, the roots and which
// side of each validity bound the request's time falls on. So a verdict is kept with the roots it
// was reached with and the times on which every validity comparison comes out the same (verify.ts
// reports them); a request of the same connection inside them gets the same answer, anything else
// is verified afresh. A reload of a CA file makes a new roots array, so its next request is
// verified against the new one. A failure is kept only when no validity comparison failed: an
// expiry's text names the request's time, so it would not be the same text.
import type { Certificate } from './certificate.js';

export interface Verdict {
  readonly roots: readonly Certificate[];
  /** The chain as verified: own copies of the bytes, so a Buffer changed in place cannot match. */
  readonly chain: readonly Certificate[];
  readonly from: number;
  readonly until: number;
  /** Why the chain does not verify, as verify.ts words it; undefined: it verifies. */
  readonly error: string | undefined;
}

/**
 * Verdicts by the presented chain array, the `capacity` most recently used chains, each with the
 * verdicts for up to `rootsPerChain` roots: every request of a client tries the request-header
 * CA's roots and then the client CA's, and both verdicts are kept.
 */
export class VerifiedChains {
  readonly #entries = new Map<readonly Buffer[], Verdict[]>();
  constructor(readonly capacity: number, readonly rootsPerChain = 4) {}

  /** The verdict on `peerChain` against `roots`, if the one reached before is what `now` would give. */
  lookup(peerChain: readonly Buffer[], roots: readonly Certificate[], now: number): Verdict | undefined {
    const verdicts = this.#entries.get(peerChain);
    if (!verdicts) return undefined;
    let hit: Verdict | undefined;
    for (const v of verdicts) if (v.roots === roots) hit = v;
    if (!hit || now < hit.from || now > hit.until || hit.chain.length !== peerChain.length) return undefined;
    for (let i = 0; i < peerChain.length; i++) if (!hit.chain[i]!.der.equals(peerChain[i]!)) return undefined;
    // Map order is insertion order: re-inserting makes it the most recently used.
    this.#entries.delete(peerChain);
    this.#entries.set(peerChain, verdicts);
    return hit;
  }

  remember(peerChain: readonly Buffer[], verdict: Verdict): void {
    const verdicts = (this.#entries.get(peerChain) ?? []).filter((v) => v.roots !== verdict.roots);
    if (verdicts.length >= this.rootsPerChain) verdicts.shift();
    verdicts.push(verdict);
    this.#entries.delete(peerChain);
    if (this.#entries.size >= this.capacity) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(peerChain, verdicts);
  }

  /** How many chains have verdicts. */
  get size(): number { return this.#entries.size; }
}

/**
 * Shared by every authenticator of the process (x509, request-header, delegating), each with roots
 * of its own. At most a few KiB a chain.
 */
export const verifiedChains = new VerifiedChains(1024);
