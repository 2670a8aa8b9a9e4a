// YAML bodies past a few kilobytes are parsed in a worker thread. The yaml package takes about
// 10 µs a byte on dense input (a 1 MB flow list: 10 s) and overflows its stack on deep nesting
// only after tens of seconds, where go-yaml takes milliseconds; on the event loop one such body
// from any user who may create a SelfSubjectAccessReview held every other request for that long.
// Off the loop it holds only its own request and the YAML bodies queued behind it, and a request
// whose context ends (deadline, client gone) ends its parse by ending the worker.
//
// The parse is done once the body has been read; parseDocument and yamlDuplicateKeys then take the
// answer kept for that Buffer instead of parsing it again.
import { Worker } from 'node:worker_threads';
import { nestingBytes } from '../api/go-yaml-depth.js';
import { unflatten } from './flat-value.js';

/** The media types whose bodies are YAML (JSON being YAML too). */
export const isYamlMediaType = (type: string): boolean => type === 'application/yaml' || type === 'application/apply-patch+yaml';

/** Bodies up to this size parse inline: at worst ~80 ms, less than a worker's round trip costs. */
export const INLINE_YAML_BYTES = 8 * 1024;

/**
 * Small bodies that could nest deeper than this go to the worker too: the yaml package recurses
 * per level and the event loop's stack ends near 1,000 levels.
 */
const INLINE_YAML_NESTING = 256;
/**
 * The worker's stack: go-yaml reads 10,000 flow levels inside 10,000 block levels, and the yaml
 * package needs ~1.5 KB of stack a level (16 MB parsed 20,000 levels of either kind).
 */
const WORKER_STACK_MB = 64;

export interface YamlJob { readonly body: Uint8Array; readonly type: string }
/** `duplicates`: yamlDuplicateKeys' answer, for an apply patch or a YAML object (the bodies it is asked of). */
export type YamlParsed =
  | { readonly value: unknown; readonly duplicates: string[]; readonly syntaxError?: undefined }
  /** `yaml`: go-yaml's error, not encoding/json's (BodySyntaxError.yaml). */
  | { readonly syntaxError: string; readonly yaml: boolean };

/** What the worker posts: a deep value goes flat (flat-value.ts). */
export type YamlAnswer = YamlParsed | { readonly flat: unknown[]; readonly duplicates: string[] };

const parsed = new WeakMap<Buffer, YamlParsed>();

/** What the worker made of `body`, if it was parsed there. */
export const parsedOffThread = (body: Buffer): YamlParsed | undefined => parsed.get(body);

const WORKER_URL = new URL('./yaml-worker.js', import.meta.url);

interface Pending {
  readonly job: YamlJob;
  readonly resolve: (p: YamlParsed) => void;
  readonly reject: (e: unknown) => void;
  readonly signal: AbortSignal | undefined;
}

/** One worker, one body at a time: a body is never worth more than a core. */
class YamlWorker {
  #worker: Worker | undefined;
  #running: Pending | undefined;
  readonly #queue: Pending[] = [];

  parse(job: YamlJob, signal: AbortSignal | undefined): Promise<YamlParsed> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) { reject(signal.reason); return; }
      const p: Pending = { job, resolve, reject, signal };
      signal?.addEventListener('abort', () => this.#abort(p), { once: true });
      this.#queue.push(p);
      this.#next();
    });
  }

  #next(): void {
    if (this.#running || this.#queue.length === 0) return;
    const p = this.#queue.shift()!;
    this.#running = p;
    this.#spawned().postMessage(p.job);
  }

  #spawned(): Worker {
    if (this.#worker) return this.#worker;
    const w = new Worker(WORKER_URL, { resourceLimits: { stackSizeMb: WORKER_STACK_MB } });
    // A worker ended by #abort still reports its exit, when another may already run the next body.
    w.on('message', (answer: YamlAnswer) => this.#settle(w, false, (p) => p.resolve('flat' in answer ? { value: unflatten(answer.flat), duplicates: answer.duplicates } : answer)));
    // Not expected (deep answers come flat), but an answer that cannot be read must not leave its request waiting.
    w.on('messageerror', (e) => this.#settle(w, false, (p) => p.reject(e)));
    // A worker that fails (out of memory, say) fails its body: the next one gets a new worker.
    w.on('error', (e) => this.#settle(w, true, (p) => p.reject(e)));
    w.on('exit', (code) => this.#settle(w, true, (p) => p.reject(new Error(`YAML worker exited with code ${code}`))));
    w.unref();
    this.#worker = w;
    return w;
  }

  #settle(w: Worker, gone: boolean, f: (p: Pending) => void): void {
    if (w !== this.#worker) return;
    if (gone) this.#worker = undefined;
    const p = this.#running;
    if (!p) return;
    this.#running = undefined;
    f(p);
    this.#next();
  }

  #abort(p: Pending): void {
    const at = this.#queue.indexOf(p);
    if (at >= 0) {
      this.#queue.splice(at, 1);
      p.reject(p.signal!.reason);
      return;
    }
    if (this.#running !== p) return;
    // The only way to stop a parse is to end the thread running it.
    const w = this.#worker;
    this.#worker = undefined;
    this.#running = undefined;
    p.reject(p.signal!.reason);
    void w?.terminate();
    this.#next();
  }
}

let worker: YamlWorker | undefined;

/**
 * Parses a YAML body of media type `type` off the event loop when it is large enough to matter,
 * keeping the answer for parseDocument and yamlDuplicateKeys. Other bodies are left alone.
 */
export async function parseYamlOffThread(body: Buffer, type: string, signal?: AbortSignal): Promise<void> {
  if (!isYamlMediaType(type) || parsed.has(body)) return;
  if (body.length <= INLINE_YAML_BYTES && nestingBytes(body, INLINE_YAML_NESTING) <= INLINE_YAML_NESTING) return;
  worker ??= new YamlWorker();
  parsed.set(body, await worker.parse({ body, type }, signal));
}
