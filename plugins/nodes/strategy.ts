// pkg/registry/core/node/strategy.go: a write to the Node keeps the stored status, a write to
// nodes/status keeps the stored spec (metadata goes through both, as upstream: the node agent
// reconciles its labels through /status). Before anything else the object is brought into the form
// upstream's decoding and conversion give it: quantities canonical (a quantity that does not parse
// fails decoding, 400), spec.podCIDR and spec.podCIDRs in step.
import { errors } from '../../core/api/errors.js';
import { formatQuantity, quantityFromJson, QuantityError } from '../../core/api/quantity.js';
import type { Node } from '../../core/nodes/node-object.js';
import type { Strategy } from '../../core/registry/strategy.js';
import { validateNode, validateNodeUpdate } from './validation.js';

/** Go's decoder refuses a malformed quantity before any validation runs. */
function canonicalQuantities(node: Node): void {
  for (const field of ['capacity', 'allocatable'] as const) {
    const list = node.status?.[field];
    if (!list) continue;
    for (const [name, value] of Object.entries(list)) {
      try {
        list[name] = formatQuantity(quantityFromJson(value));
      } catch (e) {
        if (!(e instanceof QuantityError)) throw e;
        throw errors.badRequest(`Node in version "v1" cannot be handled as a Node: ${e.message}`);
      }
    }
  }
}

/** Convert_v1_NodeSpec_To_core_NodeSpec and back: podCIDRs wins, podCIDR mirrors its first entry. */
function podCidrsInStep(node: Node): void {
  const spec = node.spec;
  if (!spec) return;
  if (!spec.podCIDRs?.length && spec.podCIDR) spec.podCIDRs = [spec.podCIDR];
  if (spec.podCIDRs?.length) spec.podCIDR = spec.podCIDRs[0]!;
  else { delete spec.podCIDR; delete spec.podCIDRs; }
}

function normalize(node: Node): void {
  canonicalQuantities(node);
  podCidrsInStep(node);
}

/**
 * dropDisabledFields: the removed dynamic configuration. A create drops spec.configSource and
 * status.config (so it draws no deprecation warning either: the warning looks at what is left); an
 * update keeps a configSource only where one was already stored.
 */
function dropConfigSource(node: Node, old: Node | undefined): void {
  if (old === undefined) {
    if (node.spec) delete node.spec.configSource;
    if (node.status) delete node.status.config;
  } else if (!old.spec?.configSource && node.spec) delete node.spec.configSource;
}

/** The status strategy's PrepareForUpdate: status.config survives only where it was already stored. */
function dropStatusConfig(node: Node, old: Node): void {
  if (old.status?.config == null && node.status) delete node.status.config;
}

/** fieldIsDeprecatedWarnings. */
function deprecatedFieldWarnings(node: Node): string[] {
  const out: string[] = [];
  if (node.spec?.configSource) out.push('spec.configSource: the feature is removed');
  if (node.spec?.externalID) out.push('spec.externalID: this field is deprecated, and is unused by Kubernetes');
  return out;
}

export const nodeStrategy: Strategy<Node> = {
  prepareForCreate(_ctx, node) {
    normalize(node);
    dropConfigSource(node, undefined);
  },
  validate: (_ctx, node) => validateNode(node),
  prepareForUpdate(_ctx, node, old) {
    if (old.status === undefined) delete node.status;
    else node.status = structuredClone(old.status);
    normalize(node);
    dropConfigSource(node, old);
  },
  validateUpdate: (_ctx, node, old) => [...validateNode(node), ...validateNodeUpdate(node, old)],
  warnings: (_ctx, node) => deprecatedFieldWarnings(node),
};

export const nodeStatusStrategy: Strategy<Node> = {
  validate: (_ctx, node) => validateNode(node),
  prepareForUpdate(_ctx, node, old) {
    if (old.spec === undefined) delete node.spec;
    else node.spec = structuredClone(old.spec);
    normalize(node);
    dropStatusConfig(node, old);
  },
  validateUpdate: (_ctx, node, old) => validateNodeUpdate(node, old),
};

/** NodeToSelectableFields: metadata.name (generic) and spec.unschedulable. */
export const nodeSelectableFields = (node: Node): Record<string, string> => ({ 'spec.unschedulable': String(node.spec?.unschedulable === true) });
