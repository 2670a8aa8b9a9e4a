// The cluster CA of each well-known signer, read when the csrsigning controller is built (or by
// the signer's first signature, whichever comes first), as upstream's csrsigning init function
// makes each signer's CA provider only once the process leads: a standby never reads the files,
// and a CA file that is not there yet when a standby starts is no problem until it leads. Signers
// given the same file pair share one provider; each signer's loader still says it starts and
// stops, as each of upstream's signer controllers runs its own.
import type { Logger } from '../../core/log.js';
import { CaProvider } from './ca-provider.js';
import type { FilePair } from './flags.js';

export class ClusterCas {
  readonly #byFiles = new Map<string, CaProvider>();
  readonly #bySigner = new Map<string, CaProvider>();
  #stopped = false;
  /** A signer's CA could not be read: the process exits as upstream's does, without its signers' stop lines. */
  #failed = false;

  constructor(private readonly files: ReadonlyMap<string, FilePair>, private readonly log: Logger) {}

  /** The signers it serves, in start order. */
  get signers(): IterableIterator<string> { return this.files.keys(); }

  /** The signer's CA, its files read (and then watched) the first time; throws upstream's start error. */
  forSigner(signer: string): CaProvider {
    const known = this.#bySigner.get(signer);
    if (known) return known;
    if (this.#stopped) throw new Error(`the cluster CA of ${signer} is shut down`);
    const files = this.files.get(signer);
    if (!files) throw new Error(`the cluster CA does not serve signer ${JSON.stringify(signer)}`);
    const key = `${files.certFile}\0${files.keyFile}`;
    let provider = this.#byFiles.get(key);
    if (!provider) {
      try {
        provider = new CaProvider(files.certFile, files.keyFile, this.log);
      } catch (e) {
        this.#failed = true;
        throw new Error(`failed to start ${signer} certificate controller: ${(e as Error).message}`);
      }
      this.#byFiles.set(key, provider);
      provider.start();
    }
    this.#bySigner.set(signer, provider);
    this.log.info('Starting controller', { name: provider.name });
    this.log.info('signing with the cluster CA', { signer, certFile: files.certFile, notAfter: provider.current().certificate.notAfter.toISOString() });
    return provider;
  }

  /** Stops watching the files; a signer's CA is not read any more after this. */
  stop(): void {
    this.#stopped = true;
    for (const p of this.#byFiles.values()) p.stop();
    if (this.#failed) return;
    for (const p of this.#bySigner.values()) this.log.info('Shutting down controller', { name: p.name });
  }
}
