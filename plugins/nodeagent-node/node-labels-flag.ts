// --node-labels checked at start-up as ValidateKubeletFlags checks it: keys in the reserved
// `platform` namespace must be ones a node agent may set (core/nodes/node-labels.ts, the same rule
// NodeRestriction enforces), and every key and value must be valid label syntax.
import { labelValueErrors, qualifiedNameErrors } from '../../core/api/selectors/label-syntax.js';
import { isNodeAgentLabel, isPlatformLabel, NODE_AGENT_LABEL_NAMESPACES, NODE_AGENT_LABELS } from '../../core/nodes/node-labels.js';

/** The start-up error for a bad --node-labels, or undefined when the labels are fine. */
export function nodeLabelsError(labels: Readonly<Record<string, string>>): string | undefined {
  const keys = Object.keys(labels).sort();
  const unknown = keys.filter((k) => isPlatformLabel(k) && !isNodeAgentLabel(k));
  if (unknown.length) {
    return `unknown 'platform' labels specified with --node-labels: [${unknown.join(' ')}]\n` +
      `--node-labels in the 'platform' namespace must begin with an allowed prefix (${NODE_AGENT_LABEL_NAMESPACES.join(', ')}) ` +
      `or be in the specifically allowed set (${NODE_AGENT_LABELS.join(', ')})`;
  }
  // Upstream files a bad value under the value itself; kept, so the message names what was wrong.
  const invalid = new Map<string, string[]>();
  const add = (what: string, errs: string[]) => { if (errs.length) invalid.set(what, [...(invalid.get(what) ?? []), ...errs]); };
  for (const k of keys) {
    add(k, qualifiedNameErrors(k));
    add(labels[k]!, labelValueErrors(labels[k]!));
  }
  if (invalid.size) return `invalid node labels: ${[...invalid].map(([what, errs]) => `'${what}' - ${errs.join(', ')}`).join('; ')}`;
  return undefined;
}
