// DeleteOptions as handlers/delete.go reads them for DELETE and deletecollection: from the body
// when there is one (and then the query is not read at all), else from the query, where
// Convert_url_Values_To_v1_DeleteOptions makes `uid` and `resourceVersion` preconditions; then
// ValidateDeleteOptions (422).
import type { Context } from 'koa';
import { errors } from '../api/errors.js';
import { fieldError, type FieldError } from '../api/field-errors.js';
import { applyGoNulls } from '../api/go-null.js';
import { PROTOBUF_MEDIA_TYPE, str, unwrap, eachField } from '../api/protobuf.js';
import { scanJsonText } from '../api/schema-fields.js';
import { queryBool, queryInt64 } from '../registry/list-options.js';
import type { JsonSchema } from '../registry/resource.js';
import { decodeBody, mediaType, readBody } from './body.js';
import { parseYamlOffThread } from './yaml-off-thread.js';
import { optionsInvalid } from './options-invalid.js';
import { requestAuditOf } from '../audit/request-audit.js';
import { notRegisteredText } from '../api/scheme-errors.js';
import { typeChecker } from './type-checkers.js';

export interface Preconditions { uid?: string; resourceVersion?: string }

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  preconditions?: Preconditions;
  orphanDependents?: boolean;
  propagationPolicy?: string;
  dryRun?: string[];
}

/** metav1.DeleteOptions for the decoder's type errors (a body is decoded leniently: unknown fields are dropped). */
/** A DELETE body's (metav1.DeleteOptions): its type checker is warmed up with the resources'. */
export const DELETE_OPTIONS_SCHEMA: JsonSchema = {
  type: 'object', 'x-go-type': 'v1.DeleteOptions',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    gracePeriodSeconds: { type: 'integer', format: 'int64' },
    preconditions: {
      type: 'object', 'x-go-type': 'v1.Preconditions',
      properties: { uid: { type: 'string', 'x-go-type': 'types.UID' }, resourceVersion: { type: 'string' } },
    },
    orphanDependents: { type: 'boolean' },
    propagationPolicy: { type: 'string', 'x-go-type': 'v1.DeletionPropagation' },
    dryRun: { type: 'array', items: { type: 'string' } },
    ignoreStoreReadErrorWithClusterBreakingPotential: { type: 'boolean' },
  },
};

const JSON_TYPES = ['application/json', 'application/yaml'];
/** What metainternalversionscheme.Codecs decodes: the DELETE of one object reads its body with it. */
export const META_MEDIA_TYPES: readonly string[] = [...JSON_TYPES, PROTOBUF_MEDIA_TYPE];

/**
 * The request's DeleteOptions, validated. `accepted` are the body's media types (415 for others):
 * the resource's own serializer's for deletecollection, META_MEDIA_TYPES for a single delete.
 */
export async function readDeleteOptions(ctx: Context, query: URLSearchParams, accepted: readonly string[]): Promise<DeleteOptions> {
  const raw = await readBody(ctx.req, ctx.state.signal as AbortSignal | undefined);
  const type = mediaType(ctx.get('content-type') || undefined);
  if (accepted.includes(type)) await parseYamlOffThread(raw, type, ctx.state.signal as AbortSignal | undefined);
  let opts: DeleteOptions;
  if (raw.length) {
    const body = fromBody(raw, type, accepted);
    opts = body.options;
    // A body's DeleteOptions are the request object of the audit event, as decoded (in the body's version).
    requestAuditOf(ctx)?.logRequestObject(asLogged(body.options, body.apiVersion));
  } else opts = fromQuery(query);
  validate(opts);
  return opts;
}

/** The DeleteOptions as the body's version encodes them: its known fields only, in their order. */
function asLogged(o: DeleteOptions, apiVersion: string): Record<string, unknown> {
  const out: Record<string, unknown> = { kind: 'DeleteOptions', apiVersion };
  if (o.gracePeriodSeconds !== undefined && o.gracePeriodSeconds !== null) out.gracePeriodSeconds = o.gracePeriodSeconds;
  if (o.preconditions) out.preconditions = o.preconditions;
  if (o.orphanDependents !== undefined && o.orphanDependents !== null) out.orphanDependents = o.orphanDependents;
  if (o.propagationPolicy) out.propagationPolicy = o.propagationPolicy;
  if (o.dryRun?.length) out.dryRun = o.dryRun;
  return out;
}

/** Where runtime.NewScheme was called for metainternalversionscheme, the scheme's name. */
const META_SCHEME = 'k8s.io/apimachinery/pkg/apis/meta/internalversion/scheme/register.go:27';
/** Kinds that scheme decodes into objects of their own (any version): not DeleteOptions, so refused after decoding. */
const UNVERSIONED_META_KINDS = new Set(['Status', 'APIVersions', 'APIGroupList', 'APIGroup', 'APIResourceList', 'CreateOptions', 'UpdateOptions']);
const DEFAULT_VERSION = 'meta.k8s.io/v1';

export const isDryRun = (o: DeleteOptions): boolean => (o.dryRun?.length ?? 0) > 0;

function fromBody(raw: Buffer, type: string, accepted: readonly string[]): { options: DeleteOptions; apiVersion: string } {
  if (!accepted.includes(type)) throw errors.unsupportedMediaType(type, accepted);
  if (type === PROTOBUF_MEDIA_TYPE) return { options: fromProtobuf(raw), apiVersion: DEFAULT_VERSION };
  // Upstream hands the decoder's own error to the client unwrapped, as a 500 with no reason;
  // it is the client's mistake, so plat answers 400 BadRequest with the same words.
  const doc = decodeBody(raw, type, (cause) => errors.badRequest(cause));
  // The body names its kind: anything but DeleteOptions is refused before anything is deleted
  // (the decoder's "no kind is registered", or the handler's check of what it decoded).
  const typed = (doc.value ?? {}) as { kind?: unknown; apiVersion?: unknown };
  const apiVersion = typeof typed.apiVersion === 'string' && typed.apiVersion ? typed.apiVersion : DEFAULT_VERSION;
  if (typeof typed.kind === 'string' && typed.kind && typed.kind !== 'DeleteOptions') {
    throw errors.badRequest(UNVERSIONED_META_KINDS.has(typed.kind) ? 'decoded object cannot be converted to DeleteOptions' : notRegisteredText(typed.kind, apiVersion, META_SCHEME));
  }
  applyGoNulls(doc.value, DELETE_OPTIONS_SCHEMA);
  const typeError = typeChecker(DELETE_OPTIONS_SCHEMA).check(doc.value, doc.json ? scanJsonText(doc.json).numbers : []);
  if (typeError) throw errors.badRequest(typeError);
  return { options: doc.value as DeleteOptions, apiVersion };
}

function fromProtobuf(raw: Buffer): DeleteOptions {
  const env = unwrap(raw, 'DeleteOptions');
  const out: DeleteOptions = {};
  try {
    for (const f of eachField(env.raw)) {
      if (f.no === 1) out.gracePeriodSeconds = Number(BigInt.asIntN(64, f.varint ?? 0n));
      else if (f.no === 2) {
        const pre: Preconditions = {};
        for (const p of eachField(f.bytes ?? Buffer.alloc(0))) {
          if (p.no === 1) pre.uid = str(p);
          else if (p.no === 2) pre.resourceVersion = str(p);
        }
        out.preconditions = pre;
      } else if (f.no === 3) out.orphanDependents = f.varint !== 0n;
      else if (f.no === 4) out.propagationPolicy = str(f);
      else if (f.no === 5) (out.dryRun ??= []).push(str(f));
    }
  } catch (e) {
    throw errors.badRequest((e as Error).message);
  }
  return out;
}

function fromQuery(query: URLSearchParams): DeleteOptions {
  const first = (k: string): string | null => query.get(k);
  const out: DeleteOptions = {};
  const grace = first('gracePeriodSeconds');
  if (grace !== null) out.gracePeriodSeconds = queryInt64(grace);
  const orphan = queryBool(first('orphanDependents'));
  if (orphan !== undefined) out.orphanDependents = orphan;
  const policy = first('propagationPolicy');
  if (policy !== null) out.propagationPolicy = policy;
  const dryRun = query.getAll('dryRun');
  if (dryRun.length) out.dryRun = dryRun;
  const uid = first('uid');
  const rv = first('resourceVersion');
  if (uid || rv) out.preconditions = { ...(uid ? { uid } : {}), ...(rv ? { resourceVersion: rv } : {}) };
  return out;
}

function validate(o: DeleteOptions): void {
  const errs: FieldError[] = [];
  const policy = o.propagationPolicy;
  if (o.orphanDependents !== undefined && policy !== undefined) {
    errs.push(fieldError.invalid('propagationPolicy', policy, 'orphanDependents and deletionPropagation cannot be both set'));
  }
  if (policy !== undefined && !['Foreground', 'Background', 'Orphan'].includes(policy)) {
    errs.push(fieldError.notSupported('propagationPolicy', policy, ['Foreground', 'Background', 'Orphan', 'nil']));
  }
  const dryRun = o.dryRun ?? [];
  if (!dryRun.every((v) => v === 'All')) errs.push(fieldError.notSupported('dryRun', dryRun, ['All']));
  if (errs.length) throw optionsInvalid('DeleteOptions', errs);
}
