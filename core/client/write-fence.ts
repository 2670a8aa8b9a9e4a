// A write fence: asked by a REST client immediately before it hands a mutating request to a
// connection, so that a controller manager that may no longer lead (its Lease not renewed within
// the renew deadline, or found lost) sends nothing a new leader could race. Nothing upstream does
// this (client-go's leaderelection "does not guarantee that only one client is acting as a
// leader"); plat's README promises a paused leader's writes are abandoned, and a promise kept by
// the client is kept for every controller alike.

export interface WriteFence {
  /** Why a write must not be sent now; undefined when it may. Synchronous: it is asked at the last moment. */
  refusal(): string | undefined;
}

/** The methods that change state: the ones a fence holds back (reads and watches pass). */
export const isMutating = (method: string): boolean => method === 'POST' || method === 'PUT' || method === 'PATCH' || method === 'DELETE';

/** A request that failed after it had gone out whole (aborted while its answer was awaited): it may have landed. */
export const wasSent = (e: unknown): boolean => (e as { requestSent?: unknown } | null)?.requestSent === true;

/** A request the fence refused: it was never sent, so nothing of it reached the server. */
export class FencedWriteError extends Error {
  override readonly name = 'FencedWriteError';
  constructor(readonly method: string, readonly url: string, reason: string) {
    super(`${method} ${url} not sent: ${reason}`);
  }
}

/**
 * A fence whose keeper is known only later (the controllers' clients are made before their
 * leader elector): open until `follow` names the fence to ask.
 */
export class DeferredFence implements WriteFence {
  #to: WriteFence | undefined;
  follow(to: WriteFence): void { this.#to = to; }
  refusal(): string | undefined { return this.#to?.refusal(); }
}
