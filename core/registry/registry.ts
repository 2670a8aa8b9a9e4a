// The resources plugins registered, by group/version/plural.
import type { ApiObject } from '../api/meta.js';
import type { NonResourcePath, ResourceDefinition, ResourceRegistry } from './resource.js';

export class Resources implements ResourceRegistry {
  readonly #defs = new Map<string, ResourceDefinition>();
  register<T extends ApiObject>(def: ResourceDefinition<T>): void {
    const key = `${def.group}/${def.version}/${def.plural}`;
    if (this.#defs.has(key)) throw new Error(`resource ${def.plural}.${def.group}/${def.version} is registered twice`);
    this.#defs.set(key, def as unknown as ResourceDefinition);
  }
  readonly #paths = new Map<string, NonResourcePath>();
  registerPath(p: NonResourcePath): void {
    if (!p.path.startsWith('/') || p.path === '/' || /^\/apis?(\/|$)/.test(p.path)) throw new Error(`cannot serve non-resource path ${p.path}`);
    if (this.#paths.has(p.path)) throw new Error(`path ${p.path} is registered twice`);
    this.#paths.set(p.path, p);
  }
  path(path: string): NonResourcePath | undefined { return this.#paths.get(path); }
  paths(): string[] { return [...this.#paths.keys()]; }
  get(group: string, version: string, plural: string): ResourceDefinition | undefined {
    return this.#defs.get(`${group}/${version}/${plural}`);
  }
  all(): readonly ResourceDefinition[] { return [...this.#defs.values()]; }
  /** Group names in registration order, core ('') first. */
  groups(): string[] {
    const gs = [...new Set(this.all().map((d) => d.group))];
    return gs.sort((a, b) => (a === '' ? -1 : b === '' ? 1 : 0));
  }
  versions(group: string): string[] {
    return [...new Set(this.all().filter((d) => d.group === group).map((d) => d.version))];
  }
  /** The resources `keep` keeps, and every non-resource path: what a server installs (`--runtime-config`). */
  only(keep: (def: ResourceDefinition) => boolean): Resources {
    const kept = new Resources();
    for (const def of this.#defs.values()) if (keep(def)) kept.register(def);
    for (const p of this.#paths.values()) kept.registerPath(p);
    return kept;
  }
  inGroupVersion(group: string, version: string): ResourceDefinition[] {
    return this.all().filter((d) => d.group === group && d.version === version);
  }
}
