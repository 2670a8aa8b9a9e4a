// --feature-gates of `plat apiserver`, `plat controller-manager` and `plat all`: declared by the
// host where the role's catalogue lists it and no plugin declares its own (the node agent does,
// through its configuration file), evaluated once the flags are parsed, before any configure tap,
// into `host.featureGates`.
import type { Flags } from '../flags/flag-set.js';
import type { FlagSpec } from '../flags/types.js';
import type { Logger } from '../log.js';
import { StartupError } from '../plugin.js';
import { evaluateComponentGates, DEFAULT_COMPONENT } from './component-flag.js';
import { CONTROL_PLANE_GATES } from './control-plane.js';
import type { FeatureGateSet } from './gate-table.js';
import { REFUSED_GATE_STATES, refusedGates } from './plat-support.js';

const NAME = 'feature-gates';
const OWNER = 'host';

/** upstream's help text with its options list, one gate a line, and what plat refuses after it. */
function helpText(): string {
  const refused = Object.entries(REFUSED_GATE_STATES).map(([n, s]) => `${n}=${s.value}`).sort();
  return [
    'Comma-separated list of component:key=value pairs that describe feature gates for alpha/experimental features of different components.',
    `If the component is not specified, defaults to "${DEFAULT_COMPONENT}". This flag can be repeatedly invoked. For example: --feature-gates 'kube:featureA=true,kube:featureB=false' --feature-gates 'kube:featureC=true'`,
    'Options are:',
    ...CONTROL_PLANE_GATES.helpLines().map((l) => `${DEFAULT_COMPONENT}:${l}`),
    `plat refuses (not implemented): ${refused.join(', ')}`,
  ].join('\n');
}

/** Declares --feature-gates when the catalogue lists it and no plugin declared it. */
export function declareFeatureGatesFlag(flags: Flags, catalogue: readonly FlagSpec[]): void {
  const listed = catalogue.find((s) => s.name === NAME);
  if (listed === undefined || flags.has(NAME)) return;
  flags.define({ name: NAME, type: 'map', typeName: 'colonSeparatedMultimapStringString', help: helpText(), section: listed.section, owner: OWNER });
}

/**
 * The gates in force, from the host's --feature-gates; undefined when the flag is a plugin's or
 * absent. Upstream's error (registry Set) names the flag or the config file field that set it.
 */
export function evaluateFeatureGatesFlag(flags: Flags, logger: Logger): FeatureGateSet | undefined {
  if (!flags.has(NAME) || flags.specs().find((s) => s.name === NAME)?.owner !== OWNER) return undefined;
  const source = flags.isSetOnCommandLine(NAME) ? `--${NAME}` : flags.sourceOf(NAME);
  const evaluation = evaluateComponentGates(flags.get<Record<string, string>>(NAME), CONTROL_PLANE_GATES);
  if ('error' in evaluation) throw new StartupError(`${source}: ${evaluation.error}`, 1);
  for (const w of evaluation.warnings) logger.warn(w);
  const refused = refusedGates(evaluation.gates.explicit());
  if (refused.length) throw new StartupError(refused.join('\n'), 2);
  return evaluation.gates;
}
