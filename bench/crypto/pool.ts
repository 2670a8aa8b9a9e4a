// `--workers N`: the same row measured in N worker_threads at once, throughput summed. This is
// what one process can do on the whole machine (issue 3: "through the worker pool: at least 1.0 x
// the one-core OpenSSL limit").
import { Worker } from 'node:worker_threads';
import type { Unavailable } from './impl.js';
import type { WorkerJob, WorkerMessage } from './worker.js';

export interface PoolMeasurement {
  opsPerSec: number;
  /** Wall-clock microseconds per operation of the whole pool (1e6 / summed ops/s). */
  usPerOp: number;
  backend: string;
}

function next(worker: Worker): Promise<WorkerMessage> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number) => reject(new Error(`worker exited with ${code}`));
    worker.once('error', reject);
    worker.once('exit', onExit);
    worker.once('message', (m: WorkerMessage) => {
      worker.off('error', reject);
      worker.off('exit', onExit);
      resolve(m);
    });
  });
}

export async function measureInWorkers(job: WorkerJob, workers: number): Promise<PoolMeasurement | Unavailable> {
  const pool = Array.from({ length: workers }, () => new Worker(new URL('./worker.js', import.meta.url), { workerData: job }));
  try {
    const ready = await Promise.all(pool.map(next));
    const bad = ready.find((m) => m.type !== 'ready');
    if (bad) return { unavailable: bad.type === 'unavailable' ? bad.reason : 'worker did not get ready' };
    const results = pool.map(next);
    for (const w of pool) w.postMessage('go');
    const done = await Promise.all(results);
    const opsPerSec = done.reduce((sum, m) => sum + (m.type === 'result' ? m.opsPerSec : 0), 0);
    const backend = ready[0]?.type === 'ready' ? ready[0].backend : '';
    return { opsPerSec, usPerOp: 1e6 / opsPerSec, backend: `${backend}, ${workers} worker thread${workers === 1 ? '' : 's'}` };
  } catch (e) {
    return { unavailable: (e as Error).message };
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
}
