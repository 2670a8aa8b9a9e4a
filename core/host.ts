// The kernel object every plugin receives: the hook catalogue, a logger, and a small record of
// what the loaded plugins provide (so a flag that names a mode no plugin implements is refused
// at start-up instead of silently ignored).
import { CONTROL_PLANE_GATES } from './feature-gates/control-plane.js';
import type { FeatureGateSet } from './feature-gates/gate-table.js';
import { createHooks, type Hooks } from './hooks.js';
import { createLogger, type Logger } from './log.js';

export class Capabilities {
  readonly #byKind = new Map<string, Map<string, string>>();
  /** Records that `plugin` provides `name` of `kind` (e.g. kind 'authorization-mode', name 'RBAC'). */
  provide(kind: string, name: string, plugin: string): void {
    let names = this.#byKind.get(kind);
    if (!names) this.#byKind.set(kind, (names = new Map()));
    const prior = names.get(name);
    if (prior && prior !== plugin) throw new Error(`${kind} "${name}" is provided by both ${prior} and ${plugin}`);
    names.set(name, plugin);
  }
  /** The plugin that provides `name` of `kind`, if any. */
  provider(kind: string, name: string): string | undefined { return this.#byKind.get(kind)?.get(name); }
  has(kind: string, name: string): boolean { return this.#byKind.get(kind)?.has(name) ?? false; }
  names(kind: string): string[] { return [...(this.#byKind.get(kind)?.keys() ?? [])]; }
}

export interface HostOptions {
  role: string;
  logger?: Logger;
  version?: string;
  /** The role is the whole process (the `plat` command), not one of several booted in a test or a bench. */
  ownsProcess?: boolean;
}

export class Host {
  readonly hooks: Hooks = createHooks();
  readonly capabilities = new Capabilities();
  readonly role: string;
  readonly logger: Logger;
  readonly version: string;
  /**
   * Whether plugins may change what belongs to the process (its OOM score, its open-file limit):
   * only when `plat` runs the role, never when a test runner or a bench boots it beside others.
   */
  readonly ownsProcess: boolean;
  /** The GitVersion to report when `--version=vX.Y.Z...` asked for one (set by boot before configure). */
  gitVersion: string | undefined;
  /**
   * The control plane's feature gates in force (--feature-gates of the API server and the
   * controller manager, Kubernetes 1.32's table): set by boot before configure; the defaults
   * until then, and for a role without the flag. The node agent has its own (its context's gates).
   */
  featureGates: FeatureGateSet = CONTROL_PLANE_GATES.defaults();
  constructor(options: HostOptions) {
    this.role = options.role;
    this.logger = options.logger ?? createLogger();
    this.version = options.version ?? '0.0.0';
    this.ownsProcess = options.ownsProcess ?? false;
  }
}
