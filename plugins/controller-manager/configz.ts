// What /configz reports for the controller manager: upstream registers its ComponentConfig, the
// internal KubeControllerManagerConfiguration, under "kubecontrollermanager.config.k8s.io", here
// "platcontrollermanager.config.platform". The internal type has no json tags, so Go's field
// names are the keys (`ClientConnection.QPS`, `LeaderElection.LeaseDuration`), durations are
// metav1.Duration text (`12h0m0s`), and its TypeMeta is empty, so no kind or apiVersion. The
// values are what runs: --config merged under the command line, defaulted. Only the fields whose
// flag this role implements are reported (those --config maps, in upstream's declaration order),
// so a part plat has no flag for (LeaderMigration, the cloud fields, other controllers, the garbage
// collector's GCIgnoredResources) is absent rather than shown with a value plat never reads.
import { formatDuration } from '../../core/flags/duration.js';
import type { FlagSet, FlagSpec } from '../../core/flags/types.js';
import { goFloat32 } from '../../core/api/go-json-marshal.js';
import { CONFIG_FIELDS } from './config-file.js';

export const CONFIGZ_NAME = 'platcontrollermanager.config.platform';

/** The internal type's Go field name for a v1alpha1 json name (`leaseDuration` → `LeaseDuration`). */
const goFieldName = (jsonName: string) => (jsonName === 'qps' ? 'QPS' : jsonName.charAt(0).toUpperCase() + jsonName.slice(1));

function goValue(spec: FlagSpec, value: unknown): unknown {
  if (spec.type === 'duration') return formatDuration(value as number);
  if (spec.type === 'float32') return goFloat32(value as number);
  return value;
}

/**
 * The object /configz shows. `canonical` maps a controller's alias to its name: upstream's ApplyTo
 * stores --controllers with aliases replaced (`-csrsigning` → `-certificatesigningrequest-signing-controller`).
 */
export function controllerManagerConfigz(flags: FlagSet, canonical: (name: string) => string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [path, flag] of Object.entries(CONFIG_FIELDS)) {
    const spec = flags.specs().find((s) => s.name === flag);
    if (spec === undefined || spec.unsupported !== undefined) continue;
    let value = goValue(spec, flags.get(flag));
    if (flag === 'controllers') {
      value = (value as string[]).map((item) => (item.startsWith('-') ? `-${canonical(item.slice(1))}` : canonical(item)));
    }
    const names = path.split('.').map(goFieldName);
    let parent = out;
    for (const name of names.slice(0, -1)) parent = (parent[name] ??= {}) as Record<string, unknown>;
    parent[names.at(-1)!] = value;
  }
  return out;
}
