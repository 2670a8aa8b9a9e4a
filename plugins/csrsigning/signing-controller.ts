// The signing controller (k8s-behaviour §4.1 and §4.3): watches CSRs and, for each approved one
// without a certificate and not Failed, asks hooks.sign.for(signerName). Upstream runs one
// controller per built-in signer; here every signer some plugin taps gets its own lane (a work
// queue with the CSR controllers' rate limiter and 5 workers, each taking up to 16 waiting CSRs
// at once), so the cluster CA's four signers
// and third-party signers are isolated from each other alike. A signerName nobody taps is nobody's
// business: its CSRs are never queued or touched.
import { setMaxListeners } from 'node:events';
import { deepClone, rfc3339 } from '../../core/api/meta.js';
import { SIGNER_APISERVER_CLIENT, SIGNER_LEGACY_UNKNOWN, SIGNER_NODEAGENT_CLIENT, SIGNER_NODEAGENT_SERVING } from '../../core/certificates/csr-object.js';
import { whenAborted } from '../../core/abort-wait.js';
import { goClientErrorText } from '../../core/client/go-url-error.js';
import { FencedWriteError } from '../../core/client/write-fence.js';
import type { Informer } from '../../core/controller/informer.js';
import { csrControllerRateLimiter } from '../../core/controller/rate-limiters.js';
import { IgnorableError } from '../../core/controller/workers.js';
import { formatDuration } from '../../core/flags/duration.js';
import { WorkQueue } from '../../core/controller/workqueue.js';
import { CERTIFICATE_QUEUE, certificateEventHandlers, runCertificateWorkers, timedCertificateSync } from '../../core/certificates/certificate-controller.js';
import type { InformerHandlers } from '../../core/controller/informer.js';
import type { ControllerContext, Runnable } from '../../core/lifecycle.js';
import type { Logger } from '../../core/log.js';
import { runningTapOwner } from '../../core/running-tap.js';
import { thrownMessage } from '../../core/thrown-message.js';
import { describeSignerTap, signerTaps, tappedSigners, type SignHookMap, type SigningRequest, type SigningResult } from '../../core/signing.js';
import { CSR_RESOURCE, hasTrueCondition, isApproved, type Csr as CsrObject } from '../../core/certificates/csr-object.js';
import { checkSignerAnswer } from './signer-answer.js';
import { CLUSTER_SIGNER } from './cluster-signer-name.js';
import { validateSignerName } from '../../core/certificates/signer-name.js';
import { formatFieldError } from '../../core/api/field-errors.js';

// Core's, kind included: the shared informer takes the first registrant's ref, and its kind names
// the type in the reflector's log lines (*v1.CertificateSigningRequest).
export { CSR_RESOURCE };
export const WORKERS_PER_SIGNER = 5;
/**
 * Most CSRs one worker takes together when many are waiting: they are signed as one batch of the
 * signing pool and their status writes are in flight together, instead of one CSR per worker with
 * the other four waiting on a round trip each.
 */
export const BATCH_PER_WORKER = 16;

/**
 * How long one signer call may take. A signer that never answers would otherwise hold a worker
 * for ever (five such CSRs stop its lane) and hold up the controller manager's shutdown until
 * --controller-shutdown-timeout; past this the call is abandoned, its request's signal aborted,
 * and the CSR retried with backoff like any failed signing.
 */
export const SIGN_TIMEOUT_MS = 60_000;

export interface SigningControllerOptions {
  /** Default SIGN_TIMEOUT_MS. */
  readonly signTimeoutMs?: number;
}

type SignHook = NonNullable<ReturnType<SignHookMap['get']>>;

interface Lane {
  readonly signer: string;
  /** Upstream's name of the signer's certificate controller (laneName). */
  readonly name: string;
  readonly logger: Logger;
  readonly queue: WorkQueue<string>;
  /** Upstream's per-controller event handlers, for this lane's CSRs. */
  readonly handlers: Required<InformerHandlers<CsrObject>>;
  running?: Promise<void>;
}

/** Upstream's names of its four signing controllers (signer.go), renamed as the signers are. */
const WELL_KNOWN_LANES: ReadonlyMap<string, string> = new Map([
  [SIGNER_NODEAGENT_SERVING, 'csrsigning-nodeagent-serving'],
  [SIGNER_NODEAGENT_CLIENT, 'csrsigning-nodeagent-client'],
  [SIGNER_APISERVER_CLIENT, 'csrsigning-plat-apiserver-client'],
  [SIGNER_LEGACY_UNKNOWN, 'csrsigning-legacy-unknown'],
]);

/**
 * A signer's lane as upstream names its signing controllers ("csrsigning-kubelet-client" for
 * kubernetes.io/kube-apiserver-client-kubelet), and another signer's lane after its name: one
 * logger-name component, so --vmodule=csrsigning-*=4 selects the lanes.
 */
export const laneName = (signer: string): string => WELL_KNOWN_LANES.get(signer) ?? `csrsigning-${signer.replaceAll('/', '-')}`;

export class SigningController implements Runnable {
  readonly #lanes = new Map<string, Lane>();
  readonly #informer: Informer<CsrObject>;
  /**
   * Per CSR, the resourceVersion its last status write (ours) replaced. While the cache still
   * shows that version it has not seen the write yet (the watch event is on its way): a sync then,
   * as when an event made the CSR dirty during the write, would sign again only to lose the
   * write's conflict, logged as a failed sync. The entry goes at the next sync of another version.
   */
  readonly #replaced = new Map<string, string>();
  #signal: AbortSignal | undefined;
  /** The signer calls being waited for, abandoned all at once when the controller stops. */
  readonly #calls = new Set<AbortController>();
  readonly #signTimeoutMs: number;

  constructor(private readonly ctx: ControllerContext, options: SigningControllerOptions = {}) {
    this.#signTimeoutMs = options.signTimeoutMs ?? SIGN_TIMEOUT_MS;
    this.#informer = ctx.informers.for<CsrObject>(CSR_RESOURCE);
    this.#informer.addHandlers({
      add: (csr) => this.#laneFor(csr)?.handlers.add(csr),
      update: (old, csr) => this.#laneFor(csr)?.handlers.update(old, csr),
      delete: (csr, tombstone) => this.#laneFor(csr)?.handlers.delete(csr, tombstone),
    });
  }

  /** The signers that have a lane so far. */
  get signers(): string[] { return [...this.#lanes.keys()]; }

  async run(signal: AbortSignal): Promise<void> {
    // Every status write in flight listens on it (up to 5 x 16 a lane): many is normal, not a leak.
    setMaxListeners(0, signal);
    this.#signal = signal;
    // Upstream starts a controller per signer with a CA at once, logging each; so does every
    // signer tapped by now. A signer tapped later gets its lane with its first CSR.
    for (const signer of tappedSigners(this.ctx.hooks.sign)) this.#laneOf(signer);
    for (const lane of this.#lanes.values()) if (!lane.running) this.#start(lane, signal);
    await whenAborted(signal);
    for (const call of this.#calls) call.abort(new IgnorableError('the controller is stopping'));
    await Promise.all([...this.#lanes.values()].map((l) => l.running));
  }

  /** The lane of a CSR's signer, when a plugin signs for it. */
  #laneFor(csr: CsrObject): Lane | undefined {
    const signer = csr.spec?.signerName;
    if (!signer || !csr.metadata.name || !this.ctx.hooks.sign.get(signer)?.isUsed()) return undefined;
    return this.#laneOf(signer);
  }

  /** The signer's lane, made (and started, when the controller runs) on first use; none once stopped. */
  #laneOf(signer: string): Lane | undefined {
    let lane = this.#lanes.get(signer);
    if (!lane) {
      if (this.#signal?.aborted) return undefined;
      const name = laneName(signer);
      const logger = this.ctx.logger.child(name);
      const queue = new WorkQueue<string>(csrControllerRateLimiter<string>(), { name: CERTIFICATE_QUEUE, metrics: this.ctx.metrics });
      lane = { signer, name, logger, queue, handlers: certificateEventHandlers<CsrObject>(logger, (csr) => queue.add(csr.metadata.name!)) };
      this.#lanes.set(signer, lane);
      if (this.#signal) this.#start(lane, this.#signal);
    }
    return lane;
  }

  #start(lane: Lane, signal: AbortSignal): void {
    const { name: controller, logger } = lane;
    const taps = signerTaps(this.ctx.hooks.sign, lane.signer);
    // One entry per tap, in the order they are asked (a module listed twice taps twice), and the
    // taps' own names beside them when one differs from its plugin's (the author's choice).
    const plugins = taps.map((t) => t.plugin);
    const named = taps.some((t) => t.tap !== undefined) ? { taps: taps.map((t) => t.tap ?? t.plugin) } : {};
    logger.info('Starting certificate controller', { name: controller, signer: lane.signer, plugins, ...named, workers: WORKERS_PER_SIGNER });
    // The API server refuses every CSR that names such a signer: its taps are never called.
    const invalid = validateSignerName('spec.signerName', lane.signer)[0];
    if (invalid) logger.warn(`${JSON.stringify(lane.signer)} is not a signerName a CSR can carry, so no CSR reaches its taps (the API server refuses it: ${formatFieldError(invalid)})`, { signer: lane.signer, plugins });
    // hooks.sign.for(signer) is a bail hook: a tap that answers for every CSR hides those after it.
    if (taps.length > 1) {
      logger.info('several plugins tap this signer: each CSR is handed to them in this order until one answers (anything but undefined), so a plugin sees only the CSRs those before it pass on', { signer: lane.signer, plugins, ...named });
    }
    lane.running = runCertificateWorkers(this.#informer, {
      name: controller, queue: lane.queue, workers: WORKERS_PER_SIGNER, batch: BATCH_PER_WORKER, logger, fence: this.ctx.fence,
      sync: (name) => timedCertificateSync(logger, name, () => this.#sync(name, logger)),
    }, signal);
  }

  async #sync(name: string, logger: Logger): Promise<void> {
    const cached = this.#informer.get(name);
    if (!cached) {
      this.#replaced.delete(name);
      logger.v(3).info('csr has been deleted', { csr: name });
      return;
    }
    const replaced = this.#replaced.get(name);
    if (replaced !== undefined) {
      if (replaced === cached.metadata.resourceVersion) {
        logger.v(4).info('the cache has not seen the status written for this csr yet', { csr: name, resourceVersion: replaced });
        return;
      }
      this.#replaced.delete(name);
    }
    if (cached.status?.certificate) return;
    if (!isApproved(cached) || hasTrueCondition(cached, 'Failed')) return;
    const signerName = cached.spec?.signerName ?? '';
    const hook = this.ctx.hooks.sign.get(signerName);
    if (!hook?.isUsed()) return;

    const spec = cached.spec ?? {};
    const now = new Date();
    const request: Omit<SigningRequest, 'signal' | 'csr'> = {
      signerName, now,
      requestPem: Buffer.from(spec.request ?? '', 'base64').toString('utf8'),
      // The cache's object is shared with every other controller of the process: nothing of it is handed out.
      usages: [...(spec.usages ?? [])],
      ...(spec.expirationSeconds !== undefined ? { expirationSeconds: spec.expirationSeconds } : {}),
    };
    let result: SigningResult | undefined;
    try {
      const { answer, by } = await this.#ask(hook, request, cached);
      result = checkSignerAnswer(answer, request.requestPem, by);
    } catch (e) {
      if (e instanceof IgnorableError) throw e;
      throw new Error(`error auto signing csr: ${thrownMessage(e)}`);
    }
    if (result === undefined) return;

    // The status write works on a copy of its own too.
    const csr = deepClone(cached);
    if ('certificatePem' in result) {
      csr.status = { ...csr.status, certificate: Buffer.from(result.certificatePem, 'utf8').toString('base64') };
      await this.#writeStatus(csr, 'error updating signature for csr');
      logger.v(2).info('issued a certificate', { csr: name, signer: signerName });
      return;
    }
    const failed = { type: 'Failed', status: 'True', reason: result.failed.reason, message: result.failed.message, lastUpdateTime: rfc3339(now) };
    csr.status = { ...csr.status, conditions: [...(csr.status?.conditions ?? []), failed] };
    await this.#writeStatus(csr, 'error adding failure condition for csr');
    logger.info('the signer refused the csr', { csr: name, signer: signerName, reason: failed.reason, message: failed.message });
  }

  /**
   * The signer's answer and the plugin that gave it, unless it takes longer than the limit or the
   * controller stops first. Several plugins may tap one signerName: an error names the one that
   * threw, or the one still running when the call was abandoned.
   */
  async #ask(hook: SignHook, request: Omit<SigningRequest, 'signal' | 'csr'>, cached: CsrObject): Promise<{ answer: unknown; by: string | undefined }> {
    const call = new AbortController();
    if (this.#signal?.aborted) throw new IgnorableError('the controller is stopping');
    const timer = setTimeout(() => call.abort(new Error(`the signer did not answer within ${formatDuration(this.#signTimeoutMs)}`)), this.#signTimeoutMs);
    this.#calls.add(call);
    const asked = { ...request, signal: call.signal } as SigningRequest;
    // req.csr is the taps' own copy, made when one first reads it (the cluster CA never does):
    // what a plugin changes there (a label, a condition) never reaches the status write.
    let copy: CsrObject | undefined;
    Object.defineProperty(asked, 'csr', { enumerable: true, get: () => (copy ??= deepClone(cached)), set: (v: CsrObject) => { copy = v; } });
    const running = () => runningTapOwner(hook)(asked);
    try {
      const abandoned = new Promise<never>((_, reject) => call.signal.addEventListener('abort', () => reject(call.signal.reason), { once: true }));
      const answer = await Promise.race([hook.promise(asked), abandoned]);
      const owner = running();
      return { answer, by: owner && describeSignerTap(owner) };
    } catch (e) {
      const owner = running();
      if (e instanceof IgnorableError || owner === undefined) throw e;
      const role = e === call.signal.reason ? 'waiting on' : 'thrown by';
      if (role === 'thrown by' && owner.plugin === CLUSTER_SIGNER) throw e;
      throw new Error(`${thrownMessage(e)} (${role} ${describeSignerTap(owner)})`);
    } finally {
      clearTimeout(timer);
      this.#calls.delete(call);
    }
  }

  /**
   * PUT /status with the version `csr` was read at; on success that version is noted as replaced.
   * Abandoned once run()'s signal aborts (leadership lost, shutdown), as upstream's
   * UpdateStatus(ctx); never sent once the leadership fence has closed (the client's), so a
   * process that no longer leads does not write beside the new leader.
   */
  async #writeStatus(csr: CsrObject, failure: string): Promise<void> {
    const from = csr.metadata.resourceVersion;
    try {
      await this.ctx.client.update(CSR_RESOURCE, csr, 'status', this.#signal ? { signal: this.#signal } : {});
    } catch (e) {
      // Fenced (never sent) or cut short by the stop (perhaps landed): the workers say which, as is.
      if (e instanceof FencedWriteError || this.#signal?.aborted) throw e;
      throw new Error(`${failure}: ${goClientErrorText(e)}`);
    }
    if (from) this.#replaced.set(csr.metadata.name ?? '', from);
  }
}
