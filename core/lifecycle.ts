// Registries for long-running parts that hooks collect: controllers (controller manager) and
// node-agent subsystems. Each registered part is started and stopped by its owning role.
import type { RestClient } from './client/rest-client.js';
import type { SharedInformers } from './controller/shared-informers.js';
import type { FlagSet } from './flags/types.js';
import type { Hooks } from './hooks.js';
import type { Logger } from './log.js';
import type { WriteFence } from './client/write-fence.js';
import type { MetricsRegistry } from './metrics/registry.js';
import type { NodeAgentContext } from './nodeagent/context.js';

export interface Runnable {
  /** Runs until `signal` aborts; resolves when fully stopped. */
  run(signal: AbortSignal): Promise<void>;
}

export interface RegistrationOptions {
  readonly enabledByDefault?: boolean;
  /**
   * Controllers: the service account whose credentials the controller's own client uses under
   * --use-service-account-credentials (upstream's ClientBuilder name); default the controller's name.
   */
  readonly clientName?: string;
  /**
   * Controllers: other names --controllers accepts for it, as upstream's controller aliases (the
   * old short names beside the `...-controller` ones); errors, logs and help use the name itself.
   */
  readonly aliases?: readonly string[];
  /**
   * Controllers: the client always has the controller manager's own credentials, whatever
   * --use-service-account-credentials says (upstream's rootClientBuilder, as for the tokens
   * controller, which makes the tokens the service-account clients would need).
   */
  readonly rootClient?: boolean;
}

export interface NamedRegistry<F> {
  register(name: string, factory: F, options?: RegistrationOptions): void;
  names(): readonly string[];
  get(name: string): F | undefined;
}

/** What a controller gets from the controller manager that runs it. */
export interface ControllerContext {
  /**
   * The controller's API client (--platconfig / --master, --plat-api-qps, --plat-api-burst); under
   * --use-service-account-credentials it acts as the controller's service account.
   */
  readonly client: RestClient;
  /** Informers shared by every controller of the process; started after all controllers are built. */
  readonly informers: SharedInformers;
  readonly logger: Logger;
  /** The controller manager's flags (after its config file): --cluster-signing-*, concurrency. */
  readonly flags: FlagSet;
  /** The host's hooks, for `sign.for(signerName)`. */
  readonly hooks: Hooks;
  /** The controller manager's metrics (its work queues report there); absent in tests that build a context. */
  readonly metrics?: MetricsRegistry;
  /**
   * Under --leader-elect, the leadership fence (core/client/write-fence.ts) the client already
   * passes every write through; a controller's workers ask it before each sync too.
   */
  readonly fence?: WriteFence;
  /** The CA bundle the controller manager's own connection trusts (a kubeconfig's certificate authority), if any. */
  readonly rootCA?: Buffer;
}

/** A factory may return undefined: the controller has nothing to do here and is skipped (upstream's `started == false`). */
export type ControllerRegistry = NamedRegistry<(ctx: ControllerContext) => Runnable | undefined>;
/**
 * A node-agent subsystem. A run() that resolves before the stop with a reason is one with nothing
 * (more) to do in this configuration (an identity subsystem running standalone): a normal start,
 * logged at V(2). One that resolves early without a reason is reported as unexpected.
 */
export interface Subsystem {
  run(signal: AbortSignal): Promise<string | void>;
}
/** Node-agent subsystems (identity, node, server, static pods, ...), built and run by `plat nodeagent`. */
export type SubsystemRegistry = NamedRegistry<(ctx: NodeAgentContext) => Subsystem>;

export class MapRegistry<F> implements NamedRegistry<F> {
  readonly #items = new Map<string, { factory: F; enabledByDefault: boolean; clientName: string; aliases: readonly string[]; rootClient: boolean; registeredBy: string | undefined }>();
  /** `registrant`: the plugin registering now (the tap being called), remembered with each part. */
  constructor(readonly registrant: () => string | undefined = () => undefined) {}
  register(name: string, factory: F, options: RegistrationOptions = {}): void {
    const aliases = options.aliases ?? [];
    for (const n of [name, ...aliases]) if (this.#items.has(n) || this.aliases().includes(n)) throw new Error(`"${n}" is registered twice`);
    this.#items.set(name, { factory, enabledByDefault: options.enabledByDefault ?? true, clientName: options.clientName ?? name, aliases, rootClient: options.rootClient ?? false, registeredBy: this.registrant() });
  }
  /** The other names of `name` (RegistrationOptions.aliases). */
  aliasesOf(name: string): readonly string[] { return this.#items.get(name)?.aliases ?? []; }
  /** Every alias of every part. */
  aliases(): string[] { return [...this.#items.values()].flatMap((i) => i.aliases); }
  registeredBy(name: string): string | undefined { return this.#items.get(name)?.registeredBy; }
  names(): readonly string[] { return [...this.#items.keys()]; }
  get(name: string): F | undefined { return this.#items.get(name)?.factory; }
  enabledByDefault(name: string): boolean { return this.#items.get(name)?.enabledByDefault ?? false; }
  clientName(name: string): string { return this.#items.get(name)?.clientName ?? name; }
  usesRootClient(name: string): boolean { return this.#items.get(name)?.rootClient ?? false; }
}

/** Why a long-running part needs its process to end (leadership lost, a controller failed to start). */
export interface ExitRequest {
  readonly code: number;
  readonly reason: string;
}

const exitRequests = new WeakMap<object, { promise: Promise<ExitRequest>; resolve: (r: ExitRequest) => void; requested: boolean }>();

function exitEntry(host: object) {
  let entry = exitRequests.get(host);
  if (!entry) {
    let resolve!: (r: ExitRequest) => void;
    const promise = new Promise<ExitRequest>((r) => { resolve = r; });
    entry = { promise, resolve, requested: false };
    exitRequests.set(host, entry);
  }
  return entry;
}

/**
 * Asks whoever runs `host` (the `plat` command, a test) to shut it down and exit with `code`, as
 * upstream components exit when they lose leadership. The first request wins.
 */
export function requestExit(host: object, request: ExitRequest): void {
  const entry = exitEntry(host);
  if (entry.requested) return;
  entry.requested = true;
  entry.resolve(request);
}

/** Resolves with the first exit request for `host` (never, if none is made). */
export function exitRequested(host: object): Promise<ExitRequest> {
  return exitEntry(host).promise;
}
