// What `/configz` reports for the node agent, in upstream's shape: configz registers the kubelet's
// configuration under the name "kubeletconfig" and serves `{"kubeletconfig": <object>}`, the
// object being the v1beta1 KubeletConfiguration with its kind and apiVersion stamped (upstream's
// convertToVersionedKubeletConfig). With the rename the key is "nodeagentconfig". The object is
// rendered as Go's encoding/json renders the versioned struct: fields in declaration order, map
// keys sorted, `omitempty` values left out when zero, pointers present when set.
import { isGoEmptyValue } from '../api/go-empty.js';
import type { NodeAgentConfiguration } from './configuration.js';
import { CONFIG_API_VERSION, CONFIG_KIND, CONFIG_TYPE, type Field, type FieldType } from './fields.js';

export const CONFIGZ_NAME = 'nodeagentconfig';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

function render(type: FieldType, v: unknown): Json | undefined {
  if (v === undefined) return undefined;
  switch (type.kind) {
    case 'object': {
      if (typeof v !== 'object' || v === null) return undefined;
      const src = v as Record<string, unknown>;
      const out: Record<string, Json> = {};
      for (const [name, f] of Object.entries(type.fields)) {
        const value = renderField(f, src[name]);
        if (value !== undefined) out[name] = value;
      }
      return out;
    }
    case 'list':
      return Array.isArray(v) ? v.map((x) => render(type.of, x) ?? null) : undefined;
    case 'map': {
      if (typeof v !== 'object' || v === null) return undefined;
      const src = v as Record<string, unknown>;
      return Object.fromEntries(Object.keys(src).sort().map((k) => [k, render(type.of, src[k]) ?? null]));
    }
    default:
      return v as Json;
  }
}

function renderField(f: Field, v: unknown): Json | undefined {
  if (f.omitEmpty && isGoEmptyValue(v)) return undefined;
  return render(f.type, v);
}

/** The versioned JSON object of `config` (kind and apiVersion first), as the config loader and /configz see it. */
export function versionedConfiguration(config: Readonly<NodeAgentConfiguration> | Readonly<Record<string, unknown>>): Record<string, Json> {
  return render(CONFIG_TYPE, { ...config, kind: CONFIG_KIND, apiVersion: CONFIG_API_VERSION }) as Record<string, Json>;
}

/** The body of GET /configz: `{"nodeagentconfig": {...}}`. */
export function configz(config: Readonly<NodeAgentConfiguration>): { nodeagentconfig: Record<string, Json> } {
  return { [CONFIGZ_NAME]: versionedConfiguration(config) } as { nodeagentconfig: Record<string, Json> };
}
