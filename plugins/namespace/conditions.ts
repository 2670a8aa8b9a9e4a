// The namespace controller's status conditions (upstream's deletion/status_condition_utils.go): the
// five condition types it owns, each True with the failure it saw or False with its "ok" reason
// and message, a condition's lastTransitionTime moved only when its status changes.
import { rfc3339 } from '../../core/api/meta.js';
import type { NamespaceCondition } from '../../core/api/namespace.js';

export const DISCOVERY_FAILURE = 'NamespaceDeletionDiscoveryFailure';
export const GROUP_VERSION_PARSING_FAILURE = 'NamespaceDeletionGroupVersionParsingFailure';
export const CONTENT_FAILURE = 'NamespaceDeletionContentFailure';
export const CONTENT_REMAINING = 'NamespaceContentRemaining';
export const FINALIZERS_REMAINING = 'NamespaceFinalizersRemaining';

/** conditionTypes, in upstream's order (the order they are appended to a status). */
const CONDITION_TYPES = [DISCOVERY_FAILURE, GROUP_VERSION_PARSING_FAILURE, CONTENT_FAILURE, CONTENT_REMAINING, FINALIZERS_REMAINING];

const OK: Record<string, { reason: string; message: string }> = {
  [DISCOVERY_FAILURE]: { reason: 'ResourcesDiscovered', message: 'All resources successfully discovered' },
  [GROUP_VERSION_PARSING_FAILURE]: { reason: 'ParsedGroupVersions', message: 'All legacy kube types successfully parsed' },
  [CONTENT_FAILURE]: { reason: 'ContentDeleted', message: 'All content successfully deleted, may be waiting on finalization' },
  [CONTENT_REMAINING]: { reason: 'ContentRemoved', message: 'All content successfully removed' },
  [FINALIZERS_REMAINING]: { reason: 'ContentRemoved', message: 'All content successfully removed' },
};

/** Go's sort.Strings: by bytes (UTF-16 code units agree for the ASCII these texts are). */
const sortStrings = (xs: string[]): string[] => xs.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

export class NamespaceConditionUpdater {
  readonly #conditions: NamespaceCondition[] = [];
  readonly #contentErrors: string[] = [];
  constructor(private readonly now: () => Date = () => new Date()) {}

  #true(type: string, reason: string, message: string): void {
    this.#conditions.push({ type, status: 'True', lastTransitionTime: rfc3339(this.now()), reason, message });
  }

  /** ProcessDiscoverResourcesErr. */
  discoveryError(err: Error & { groups?: ReadonlyMap<string, string> }): void {
    const message = err.groups ? `Discovery failed for some groups, ${err.groups.size} failing: ${err.message}` : err.message;
    this.#true(DISCOVERY_FAILURE, 'DiscoveryFailed', message);
  }

  /** ProcessGroupVersionErr. */
  groupVersionError(err: Error): void {
    this.#true(GROUP_VERSION_PARSING_FAILURE, 'GroupVersionParsingFailed', err.message);
  }

  /** ProcessDeleteContentErr. */
  deleteContentError(message: string): void {
    this.#contentErrors.push(message);
  }

  /** ProcessContentTotals: resources left per `resource.group`, objects left per finalizer. */
  contentTotals(remaining: ReadonlyMap<string, number>, finalizers: ReadonlyMap<string, number>): void {
    if (remaining.size) {
      const each = sortStrings([...remaining].filter(([, n]) => n > 0).map(([gr, n]) => `${gr} has ${n} resource instances`));
      this.#true(CONTENT_REMAINING, 'SomeResourcesRemain', `Some resources are remaining: ${each.join(', ')}`);
    }
    if (finalizers.size) {
      const each = sortStrings([...finalizers].filter(([, n]) => n > 0).map(([f, n]) => `${f} in ${n} resource instances`));
      this.#true(FINALIZERS_REMAINING, 'SomeFinalizerRemain', `Some finalizers are remaining: ${each.join(', ')}`);
    }
  }

  /** Update: the conditions written into `status` (changed in place); true when anything changed. */
  update(status: { conditions?: NamespaceCondition[] }): boolean {
    if (!this.#conditions.some((c) => c.type === CONTENT_FAILURE) && this.#contentErrors.length) {
      const msgs = sortStrings([...this.#contentErrors]);
      this.#true(CONTENT_FAILURE, 'ContentDeletionFailed', `Failed to delete all resource types, ${msgs.length} remaining: ${msgs.join(', ')}`);
    }
    let changed = false;
    const conditions = status.conditions ??= [];
    for (const type of CONDITION_TYPES) {
      const next = this.#conditions.find((c) => c.type === type)
        ?? { type, status: 'False', lastTransitionTime: rfc3339(this.now()), ...OK[type]! };
      const old = conditions.find((c) => c.type === type);
      if (!old) {
        conditions.push(next);
        changed = true;
      } else if (old.status !== next.status || old.message !== next.message || old.reason !== next.reason) {
        if (old.status !== next.status) old.lastTransitionTime = rfc3339(this.now());
        old.status = next.status;
        if (next.reason !== undefined) old.reason = next.reason; else delete old.reason;
        if (next.message !== undefined) old.message = next.message; else delete old.message;
        changed = true;
      }
    }
    return changed;
  }
}
