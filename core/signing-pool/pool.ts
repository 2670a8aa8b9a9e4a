// Certificate issuance off the event loop: a pool of worker threads (one per core by default)
// running core/crypto. Requests queue while every worker is busy; a free worker takes the oldest
// request together with queued requests for the same CA and policy (up to maxBatch), so the pool
// batches when requests pile up. Requests made in one turn of the event loop go out together at
// the end of it: a signing controller hands over a batch of CSRs in one turn, and waking a worker
// thread for each costs more than the wait (a round trip to an idle worker costs ~0.2 ms of CPU on
// a 2-core VM, a pipelined one ~0.02 ms). For the same reason a batch is split between free
// workers only when each share is at least minShare requests, and a few requests wait for a
// worker busy with a small batch rather than wake another: a few CSRs are done by one worker in
// well under a millisecond (on the pool alone at plat bench issue's pace: 2,900 -> 2,470 batches
// per 3,050 certificates). A worker busy with a large batch (a pile of RSA CSRs, say) is not
// waited for.
// Workers are started by start() (a signing controller's, when it starts) or on demand, hold the
// process open only while they work, and are replaced on demand when one dies.
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { IssuePolicy } from '../crypto/index.js';
import { silentLogger, type Logger } from '../log.js';
import type { BatchMessage, BatchReply, PoolCa } from './protocol.js';

export type { PoolCa } from './protocol.js';

export interface SigningPoolOptions {
  /** Worker threads; default os.availableParallelism(). */
  readonly size?: number;
  /** Most requests in one batch; default 256 (the WASM batch size). */
  readonly maxBatch?: number;
  /** Fewest requests worth waking another free worker for; default 16. */
  readonly minShare?: number;
  /** Where each worker's start is told, at V(4). */
  readonly logger?: Logger;
}

export interface SigningPoolStats {
  readonly batches: number;
  readonly issued: number;
  readonly largestBatch: number;
  readonly workersStarted: number;
}

interface Job {
  readonly request: string;
  readonly ca: PoolCa;
  readonly policy: IssuePolicy;
  /** Jobs with the same key can share a batch. */
  readonly key: string;
  resolve(certificatePem: string): void;
  reject(error: Error): void;
}

interface Slot {
  readonly worker: Worker;
  batch?: { readonly id: number; readonly jobs: readonly Job[] } | undefined;
  lastError?: Error | undefined;
}

const WORKER_URL = new URL('./worker.js', import.meta.url);

export class SigningPool {
  readonly size: number;
  readonly maxBatch: number;
  readonly minShare: number;
  readonly #log: Logger;
  #slots: Slot[] = [];
  #queue: Job[] = [];
  #nextId = 1;
  #closed = false;
  #pumpScheduled = false;
  #stats = { batches: 0, issued: 0, largestBatch: 0, workersStarted: 0 };

  constructor(o: SigningPoolOptions = {}) {
    this.size = Math.max(1, Math.floor(o.size ?? os.availableParallelism()));
    this.maxBatch = Math.max(1, Math.floor(o.maxBatch ?? 256));
    this.minShare = Math.max(1, Math.floor(o.minShare ?? 16));
    this.#log = o.logger ?? silentLogger;
  }

  get stats(): SigningPoolStats { return { ...this.#stats }; }

  /**
   * Issues a certificate for `request` (PEM) under `ca` with `policy`; resolves with its PEM.
   * Rejects with the reason the request could not be issued (parse, proof of possession, signing),
   * or when a worker died or the pool closed meanwhile.
   */
  issue(request: string, ca: PoolCa, policy: IssuePolicy): Promise<string> {
    if (this.#closed) return Promise.reject(new Error('signing pool is closed'));
    const key = JSON.stringify([ca.id, policy.usages, policy.notBefore.getTime(), policy.notAfter.getTime(), policy.isCA ?? false]);
    return new Promise<string>((resolve, reject) => {
      this.#queue.push({ request, ca, policy, key, resolve, reject });
      if (this.#pumpScheduled) return;
      this.#pumpScheduled = true;
      setImmediate(() => {
        this.#pumpScheduled = false;
        this.#pump();
      });
    });
  }

  /**
   * Starts the workers that are not running yet, so that the first request does not wait for a
   * thread, core/crypto's modules and the WASM compile: ~0.2 s on an idle 2-core VM, 1-3 s at a
   * load of 10, which a fresh cluster's first CSR paid. Idle, they stay unref'd: a started pool
   * holds no process open. Nothing once closed.
   */
  start(): void {
    if (this.#closed) return;
    while (this.#slots.length < this.size) this.#spawn();
  }

  /** Stops every worker; queued and running requests are rejected. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const error = new Error('signing pool is closed');
    for (const job of this.#queue.splice(0)) job.reject(error);
    const slots = this.#slots.splice(0);
    for (const slot of slots) for (const job of slot.batch?.jobs ?? []) job.reject(error);
    // A worker is unref'd while idle: held by a ref until its exit is reported, or the event loop
    // may end first and close() never resolve (#answer leaves the refs alone once closed).
    await Promise.all(slots.map((s) => { s.worker.ref(); return s.worker.terminate(); }));
  }

  #pump(): void {
    while (this.#queue.length > 0 && !this.#closed) {
      const free = this.#slots.filter((s) => !s.batch).length + (this.size - this.#slots.length);
      if (free === 0) return;
      const key = this.#queue[0]!.key;
      // An even share for as many free workers as get minShare each (see the header).
      const same = this.#queue.reduce((n, job) => n + (job.key === key ? 1 : 0), 0);
      if (same < this.minShare && this.#slots.some((s) => s.batch && s.batch.jobs.length < this.minShare)) return;
      const workers = Math.max(1, Math.min(free, Math.floor(same / this.minShare)));
      const take = Math.min(this.maxBatch, Math.ceil(same / workers));
      const slot = this.#slots.find((s) => !s.batch) ?? this.#spawn();
      const jobs: Job[] = [];
      const rest: Job[] = [];
      for (const job of this.#queue) (jobs.length < take && job.key === key ? jobs : rest).push(job);
      this.#queue = rest;
      this.#dispatch(slot, jobs);
    }
  }

  #dispatch(slot: Slot, jobs: Job[]): void {
    const first = jobs[0]!;
    const message: BatchMessage = {
      id: this.#nextId++, ca: first.ca, usages: first.policy.usages, isCA: first.policy.isCA ?? false,
      notBefore: first.policy.notBefore.getTime(), notAfter: first.policy.notAfter.getTime(), requests: jobs.map((j) => j.request),
    };
    slot.batch = { id: message.id, jobs };
    this.#stats.batches++;
    this.#stats.largestBatch = Math.max(this.#stats.largestBatch, jobs.length);
    slot.worker.ref();
    slot.worker.postMessage(message);
  }

  #spawn(): Slot {
    const worker = new Worker(WORKER_URL);
    const slot: Slot = { worker };
    this.#stats.workersStarted++;
    worker.on('message', (reply: BatchReply) => this.#answer(slot, reply));
    worker.on('error', (e) => { slot.lastError = e; });
    worker.on('exit', (code) => this.#lost(slot, code));
    // After the listeners: a 'message' listener refs the worker's port again, which held the
    // process open with a worker started ahead of any request (start()).
    worker.unref();
    this.#slots.push(slot);
    this.#log.v(4).info('Started a signing worker', { workers: this.#slots.length, size: this.size });
    return slot;
  }

  #answer(slot: Slot, reply: BatchReply): void {
    // A reply that crosses close(): its jobs were rejected, and its worker is being terminated.
    if (this.#closed) return;
    const batch = slot.batch;
    if (!batch || batch.id !== reply.id) return;
    slot.batch = undefined;
    slot.worker.unref();
    batch.jobs.forEach((job, i) => {
      if ('failure' in reply) return job.reject(new Error(`failed to sign certificate: ${reply.failure}`));
      const r = reply.results[i];
      if (r && 'certificatePem' in r) { this.#stats.issued++; job.resolve(r.certificatePem); } else job.reject(new Error(r?.error ?? 'signing worker gave no result'));
    });
    this.#pump();
  }

  /** A worker that exits while the pool is open died: its batch fails (callers retry) and a new one takes its place on demand. */
  #lost(slot: Slot, code: number): void {
    const i = this.#slots.indexOf(slot);
    if (i < 0) return;
    this.#slots.splice(i, 1);
    const error = new Error(`signing worker stopped (exit code ${code})${slot.lastError ? `: ${slot.lastError.message}` : ''}`);
    for (const job of slot.batch?.jobs ?? []) job.reject(error);
    this.#pump();
  }
}
