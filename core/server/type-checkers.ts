// The body type checker of each schema, shared by every request, and their warm-up. Compiling a
// checker (ajv generates and evaluates code) takes tens of milliseconds a schema, over a hundred
// for a CertificateSigningRequest under load: paid by the first request of each resource, on the
// event loop, it made a fresh server's first CSR (and the approver's SubjectAccessReview) slow.
// Go's decoder has no such cost, so the server compiles them once it listens, one a turn of the
// event loop and only while no request is in flight: a request's many turns (TLS, body, storage)
// would otherwise each wait for a compile, and one arriving meanwhile waits for one at most.
// /readyz does not wait for it (upstream's has nothing to wait for); a body that comes first
// compiles its own checker, as before.
import { SchemaTypeChecker } from '../api/schema-types.js';
import { sleep } from '../abort-wait.js';
import type { Logger } from '../log.js';
import type { Resources } from '../registry/registry.js';
import type { JsonSchema } from '../registry/resource.js';

const checkers = new WeakMap<JsonSchema, SchemaTypeChecker>();

export function typeChecker(schema: JsonSchema): SchemaTypeChecker {
  let c = checkers.get(schema);
  if (!c) checkers.set(schema, (c = new SchemaTypeChecker(schema)));
  return c;
}

/** Whether `schema`'s checker is compiled (warmed up, or a body has been checked against it). */
export const hasTypeChecker = (schema: JsonSchema): boolean => checkers.has(schema);

/** Every body schema `resources` decode with: each kind's, then its create subresources' (TokenRequest). */
export function bodySchemas(resources: Resources): JsonSchema[] {
  const out = new Set<JsonSchema>();
  for (const def of resources.all()) {
    out.add(def.schema);
    for (const sub of def.subresources ?? []) if (sub.create) out.add(sub.create.schema);
  }
  return [...out];
}

/** How often a warm-up held back by requests in flight looks again. */
const BUSY_RETRY_MS = 5;

export interface WarmUp {
  /** Stops it (the server's shutdown has begun). */
  readonly signal: AbortSignal;
  /** Whether requests are in flight: no compile starts then. */
  busy(): boolean;
  readonly log: Logger;
}

/** Compiles the checkers of `schemas` in turn, until done or aborted; never rejects. */
export async function warmTypeCheckers(schemas: readonly JsonSchema[], w: WarmUp): Promise<void> {
  for (const schema of schemas) {
    do await sleep(w.busy() ? BUSY_RETRY_MS : 0, w.signal); while (w.busy() && !w.signal.aborted);
    if (w.signal.aborted) return;
    try {
      typeChecker(schema);
    } catch (e) {
      // The request that needs it compiles it again and fails as it would have without the warm-up.
      w.log.error('compiling a body type checker failed', { err: (e as Error).message });
    }
  }
}
