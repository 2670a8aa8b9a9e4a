// The audit annotations the webhook dispatchers add (mutating/dispatcher.go's webhookAnnotator,
// both dispatchers' handling of response.auditAnnotations), their keys in plat's group
// (`admission.k8s.io` → `admission.platform`, as authorization.platform/decision). A key refused
// (a webhook's bad auditAnnotations key, a reinvoked webhook's second patch) is logged, as upstream,
// and the request goes on.
import type { AdmissionRequest } from '../../core/admission/request.js';
import type { AuditLevel } from '../../core/audit/event.js';
import { goJsonMarshal } from '../../core/api/go-json-marshal.js';
import type { Logger } from '../../core/log.js';

const MUTATION_PREFIX = 'mutation.webhook.admission.platform/';
const PATCH_PREFIX = 'patch.webhook.admission.platform/';
const FAILED_OPEN_MUTATING_PREFIX = `failed-open.${MUTATION_PREFIX}`;
const FAILED_OPEN_VALIDATING_PREFIX = 'failed-open.validating.webhook.admission.platform/';

function add(req: AdmissionRequest, logger: Logger, what: string, key: string, value: string, level: AuditLevel = 'Metadata'): void {
  try {
    req.addAnnotationWithLevel(key, value, level);
  } catch (e) {
    logger.warn(`failed to set ${what} key ${key} to ${value}: ${(e as Error).message}`);
  }
}

/** An annotation in a webhook's name, refused with the dispatchers' words. */
function addFor(req: AdmissionRequest, logger: Logger, webhook: string, mutating: boolean, key: string, value: string): void {
  try {
    req.addAnnotation(key, value);
  } catch (e) {
    logger.warn(`Failed to set admission audit annotation ${key} to ${value} for ${mutating ? 'mutating' : 'validating'} webhook ${webhook}: ${(e as Error).message}`);
  }
}

/** A webhook's response.auditAnnotations, each as `<webhook name>/<key>`. */
export function addResponseAnnotations(req: AdmissionRequest, logger: Logger, webhook: string, mutating: boolean, annotations: Readonly<Record<string, string>>): void {
  for (const [k, v] of Object.entries(annotations)) addFor(req, logger, webhook, mutating, `${webhook}/${k}`, v);
}

/** One mutating webhook's call, at its place (round 0 or 1, index among the webhooks). */
export class MutatingAnnotator {
  readonly #suffix: string;
  constructor(private readonly req: AdmissionRequest, private readonly logger: Logger, round: number, index: number,
    private readonly configuration: string, private readonly webhook: string) {
    this.#suffix = `round_${round}_index_${index}`;
  }

  /** Every call, whatever its outcome: whether it changed the object. */
  mutation(mutated: boolean): void {
    const value = goJsonMarshal({ configuration: this.configuration, webhook: this.webhook, mutated });
    add(this.req, this.logger, 'mutation annotation for mutating webhook', MUTATION_PREFIX + this.#suffix, value);
  }

  /** An applied JSON patch, at level Request (it shows what the webhook wrote into the object). */
  patch(operations: readonly unknown[]): void {
    const value = goJsonMarshal({ configuration: this.configuration, webhook: this.webhook, patch: operations.map(sortedKeys), patchType: 'JSONPatch' });
    add(this.req, this.logger, 'patch annotation for mutating webhook', PATCH_PREFIX + this.#suffix, value, 'Request');
  }

  /** A call that failed under failurePolicy Ignore. */
  failedOpen(): void {
    add(this.req, this.logger, 'failed open annotation for mutating webhook', FAILED_OPEN_MUTATING_PREFIX + this.#suffix, this.webhook);
  }
}

/** A validating webhook's call that failed under failurePolicy Ignore (index among those called). */
export function addValidatingFailedOpen(req: AdmissionRequest, logger: Logger, index: number, webhook: string): void {
  addFor(req, logger, webhook, false, `${FAILED_OPEN_VALIDATING_PREFIX}round_0_index_${index}`, webhook);
}

/** A decoded operation is a Go map: marshalled with its keys sorted (its values kept as sent). */
function sortedKeys(op: unknown): unknown {
  if (typeof op !== 'object' || op === null || Array.isArray(op)) return op;
  const o = op as Record<string, unknown>;
  return Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));
}
