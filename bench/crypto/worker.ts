// One worker thread of `plat bench crypto --workers N`: prepares its row from the inputs it was
// given (the same bytes as the main thread's), says ready, waits for 'go' so all workers time the
// same wall-clock window, then measures and posts the result.
import { parentPort, workerData } from 'node:worker_threads';
import { isUnavailable, type Op } from './impl.js';
import { implByName } from './impls/index.js';
import type { BenchInputs } from './inputs.js';
import { measure } from './run.js';

export interface WorkerJob {
  impl: string;
  op: Op;
  inputs: BenchInputs;
  seconds: number;
}

export type WorkerMessage =
  | { type: 'ready'; backend: string }
  | { type: 'unavailable'; reason: string }
  | { type: 'result'; opsPerSec: number };

const job = workerData as WorkerJob;
const port = parentPort!;
const impl = implByName(job.impl);
const prepared = impl ? await impl.prepare(job.op, job.inputs) : { unavailable: `unknown implementation ${job.impl}` };
if (isUnavailable(prepared)) {
  port.postMessage({ type: 'unavailable', reason: prepared.unavailable } satisfies WorkerMessage);
} else {
  port.once('message', () => {
    void measure(prepared, job.seconds).then((m) => port.postMessage({ type: 'result', opsPerSec: m.opsPerSec } satisfies WorkerMessage));
  });
  port.postMessage({ type: 'ready', backend: prepared.backend } satisfies WorkerMessage);
}
