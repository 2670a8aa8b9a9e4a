// What the cluster CA does when the csrsigning controller is built: upstream's controller init
// function runs only once the process leads and builds its controllers, so a standby (or a process
// with csrsigning off) neither logs the signers it skips nor starts signing workers. ClusterSigner
// registers these at configure; the controller's factory runs them with its logger.
import type { Hooks } from '../../core/hooks.js';
import type { Logger } from '../../core/log.js';

const starts = new WeakMap<Hooks, ((log: Logger) => void)[]>();

export function onSigningControllerStart(hooks: Hooks, run: (log: Logger) => void): void {
  const list = starts.get(hooks);
  if (list) list.push(run);
  else starts.set(hooks, [run]);
}

/** Called by the csrsigning controller's factory, with the controller's logger. */
export function signingControllerStarting(hooks: Hooks, log: Logger): void {
  for (const run of starts.get(hooks) ?? []) run(log);
}
