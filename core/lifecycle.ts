// Registries for long-running parts that hooks collect: controllers (controller manager) and
// node-agent subsystems. Each registered part is started and stopped by its owning role.

export interface Runnable {
  /** Runs until `signal` aborts; resolves when fully stopped. */
  run(signal: AbortSignal): Promise<void>;
}

export interface NamedRegistry<F> {
  register(name: string, factory: F, options?: { enabledByDefault?: boolean }): void;
  names(): readonly string[];
  get(name: string): F | undefined;
}

export type ControllerRegistry = NamedRegistry<() => Runnable>;
export type SubsystemRegistry = NamedRegistry<() => Runnable>;

export class MapRegistry<F> implements NamedRegistry<F> {
  readonly #items = new Map<string, { factory: F; enabledByDefault: boolean }>();
  register(name: string, factory: F, options: { enabledByDefault?: boolean } = {}): void {
    if (this.#items.has(name)) throw new Error(`"${name}" is registered twice`);
    this.#items.set(name, { factory, enabledByDefault: options.enabledByDefault ?? true });
  }
  names(): readonly string[] { return [...this.#items.keys()]; }
  get(name: string): F | undefined { return this.#items.get(name)?.factory; }
  enabledByDefault(name: string): boolean { return this.#items.get(name)?.enabledByDefault ?? false; }
}
