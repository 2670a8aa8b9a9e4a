// A keep-alive connection presents the same chain on every request, and core/server/peer.ts hands
// every request of a connection the same array. Verifying it again (parses and signatures are
// remembered already, certificate-cache.ts and verify.ts) still cost ~5 µs a request, spent
// reaching the same answer: the answer is a pure function of the chain's bytes, the roots and which
// side of each validity bound the request's time falls on. So a success is kept with the roots it
// was reached with and the times on which every validity comparison comes out the same (verify.ts
// reports them); a request of the same connection inside them gets the same answer, anything else
// is verified afresh. A reload of a CA file makes a new roots array, so its next request is
// verified against the new one. Failures are not kept: their texts may name the time.
import type { Certificate } from './certificate.js';

interface Verified {
  readonly roots: readonly Certificate[];
  /** The chain as verified: own copies of the bytes, so a Buffer changed in place cannot match. */
  readonly chain: readonly Certificate[];
  readonly from: number;
  readonly until: number;
}

/** Successful verifications by the presented chain array, the `capacity` most recently used. */
export class VerifiedChains {
  readonly #entries = new Map<readonly Buffer[], Verified>();
  constructor(readonly capacity: number) {}

  /** The leaf of `peerChain` if it was verified against `roots` with the same outcome `now` would give. */
  leaf(peerChain: readonly Buffer[], roots: readonly Certificate[], now: number): Certificate | undefined {
    const hit = this.#entries.get(peerChain);
    if (!hit || hit.roots !== roots || now < hit.from || now > hit.until || hit.chain.length !== peerChain.length) return undefined;
    for (let i = 0; i < peerChain.length; i++) if (!hit.chain[i]!.der.equals(peerChain[i]!)) return undefined;
    // Map order is insertion order: re-inserting makes it the most recently used.
    this.#entries.delete(peerChain);
    this.#entries.set(peerChain, hit);
    return hit.chain[0];
  }

  remember(peerChain: readonly Buffer[], entry: Verified): void {
    this.#entries.delete(peerChain);
    if (this.#entries.size >= this.capacity) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(peerChain, entry);
  }

  get size(): number { return this.#entries.size; }
}

/**
 * Shared by every authenticator of the process (x509, request-header, delegating), each with roots
 * of its own: one entry a chain, for the roots it last succeeded with (a client certificate
 * verifies against one bundle, a front proxy's against another). At most a few KiB an entry.
 */
export const verifiedChains = new VerifiedChains(1024);
