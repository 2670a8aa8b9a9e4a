// Upstream's ResourceConfig (apiserver's server/storage): which group versions, and which
// resources in them, the server installs. A resource set on its own wins over its version; setting
// a version again forgets what was set for its resources before.

export interface GroupVersion {
  readonly group: string;
  readonly version: string;
}

const versionKey = (gv: GroupVersion) => `${gv.group}/${gv.version}`;

export class ResourceConfig {
  readonly #versions = new Map<string, { readonly gv: GroupVersion; enabled: boolean }>();
  /** By `group/version` then resource. */
  readonly #resources = new Map<string, Map<string, boolean>>();

  /** The versions the server knows, each with its default. */
  constructor(defaults: Iterable<readonly [GroupVersion, boolean]>) {
    for (const [gv, enabled] of defaults) this.#versions.set(versionKey(gv), { gv, enabled });
  }

  /** EnableMatchingVersions / DisableMatchingVersions: only the versions the server knows. */
  setMatchingVersions(matches: (gv: GroupVersion) => boolean, enabled: boolean): void {
    for (const entry of this.#versions.values()) {
      if (!matches(entry.gv)) continue;
      entry.enabled = enabled;
      this.#resources.delete(versionKey(entry.gv));
    }
  }

  setVersion(gv: GroupVersion, enabled: boolean): void {
    this.#versions.set(versionKey(gv), { gv, enabled });
    this.#resources.delete(versionKey(gv));
  }

  setResource(gv: GroupVersion, resource: string, enabled: boolean): void {
    const key = versionKey(gv);
    const resources = this.#resources.get(key) ?? new Map<string, boolean>();
    resources.set(resource, enabled);
    this.#resources.set(key, resources);
  }

  resourceEnabled(group: string, version: string, resource: string): boolean {
    const key = versionKey({ group, version });
    return this.#resources.get(key)?.get(resource) ?? this.#versions.get(key)?.enabled ?? false;
  }
}
