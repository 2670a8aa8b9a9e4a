// What the cluster CA says about the signers it skips, said when the csrsigning controller is
// built: upstream logs it from the controller's init function, which runs only once the process
// leads and builds its controllers (a standby never says it, nor a process with csrsigning off).
// ClusterSigner sets the lines at configure; the controller's factory says them with its logger.
import type { Hooks } from '../../core/hooks.js';
import type { Logger } from '../../core/log.js';

const startLines = new WeakMap<Hooks, (log: Logger) => void>();

export function setSignerStartLines(hooks: Hooks, say: (log: Logger) => void): void {
  startLines.set(hooks, say);
}

/** Called by the csrsigning controller's factory, with the controller's logger. */
export function saySignerStartLines(hooks: Hooks, log: Logger): void {
  startLines.get(hooks)?.(log);
}
