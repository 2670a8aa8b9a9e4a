// POST serviceaccounts/{name}/token: a TokenRequest (authentication.platform/v1) answered with a
// signed, audience- and time-bound JWT for the account, as upstream's TokenREST: body name and
// namespace must match the URL, expirationSeconds defaults to 3600 and lies in [600, 2^32],
// audiences default to the API audiences, the lifetime is capped by
// --service-account-max-token-expiration, and a token may be bound to a Secret or a Node (it dies with it).
import { errors } from '../../core/api/errors.js';
import { fieldError, type FieldError } from '../../core/api/field-errors.js';
import type { ApiObject } from '../../core/api/meta.js';
import { objectMeta, str, eachField } from '../../core/api/protobuf.js';
import { typeMetaProperties } from '../../core/api/object-meta-schema.js';
import type { JsonSchema } from '../../core/registry/resource.js';
import type { SubresourceCreate, SubresourceCreateContext } from '../../core/registry/strategy.js';
import { makeClaims, type BoundClaims } from './claims.js';
import type { ServiceAccount } from './service-account.js';
import { bindingFor, type BoundObjectReference, type BoundStores } from './bound-object.js';

export const AUTHENTICATION_GROUP = 'authentication.platform';
/** The apiVersion clients built for upstream send (kubectl create token). */
export const UPSTREAM_API_VERSION = 'authentication.k8s.io/v1';
export const DEFAULT_EXPIRATION_SECONDS = 3600;
const MIN_EXPIRATION_SECONDS = 600;
const MAX_EXPIRATION_SECONDS = 2 ** 32;


export interface TokenRequest extends ApiObject {
  spec?: { audiences?: string[] | null; expirationSeconds?: number; boundObjectRef?: BoundObjectReference | null };
  status?: { token: string; expirationTimestamp: string };
}

/** What signs: the first --service-account-issuer and the current signing key. */
export interface TokenSigner {
  readonly issuer: string;
  readonly apiAudiences: readonly string[];
  /** 0: no cap. */
  readonly maxExpirationSeconds: number;
  sign(claims: Record<string, unknown>): string;
}

const schema: JsonSchema = {
  type: 'object',
  'x-go-type': 'v1.TokenRequest',
  description: 'TokenRequest requests a token for a given service account.',
  required: ['spec'],
  properties: {
    ...typeMetaProperties,
    spec: {
      type: 'object',
      'x-go-type': 'v1.TokenRequestSpec',
      description: 'Spec holds information about the request being evaluated',
      properties: {
        audiences: {
          type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'atomic',
          description: 'Audiences are the intendend audiences of the token. A recipient of a token must identify themself with an identifier in the list of audiences of the token, and otherwise should reject the token.',
        },
        expirationSeconds: { type: 'integer', format: 'int64', description: 'ExpirationSeconds is the requested duration of validity of the request.' },
        boundObjectRef: {
          type: 'object',
          'x-go-type': 'v1.BoundObjectReference',
          description: 'BoundObjectRef is a reference to an object that the token will be bound to. The token will only be valid for as long as the bound object exists.',
          properties: Object.fromEntries(['apiVersion', 'kind', 'name', 'uid'].map((k) => [k, k === 'uid' ? { type: 'string', 'x-go-type': 'types.UID' } : { type: 'string' }])),
        },
      },
    },
    status: {
      type: 'object',
      'x-go-type': 'v1.TokenRequestStatus',
      description: 'Status is filled in by the server and indicates whether the token can be authenticated.',
      properties: { token: { type: 'string' }, expirationTimestamp: { type: 'string', format: 'date-time' } },
    },
  },
};

/** TokenRequest from kubectl's typed client (protobuf: metadata 1, spec 2{audiences 1, boundObjectRef 3, expirationSeconds 4}). */
function decodeProtobuf(raw: Buffer): ApiObject {
  const obj: TokenRequest = { metadata: {} };
  for (const f of eachField(raw)) {
    if (f.no === 1) obj.metadata = objectMeta(f.bytes!);
    else if (f.no === 2) {
      const spec: NonNullable<TokenRequest['spec']> = {};
      for (const s of eachField(f.bytes!)) {
        if (s.no === 1) (spec.audiences ??= []).push(str(s));
        else if (s.no === 4) spec.expirationSeconds = Number(s.varint ?? 0n);
        else if (s.no === 3) {
          const names = ['', 'kind', 'apiVersion', 'name', 'uid'] as const;
          const ref: Record<string, string> = {};
          for (const r of eachField(s.bytes!)) { const k = names[r.no]; if (k) ref[k] = str(r); }
          spec.boundObjectRef = ref;
        }
      }
      obj.spec = spec;
    }
  }
  return obj;
}

const groupKind = { group: AUTHENTICATION_GROUP, kind: 'TokenRequest' };

export function tokenSubresource(deps: {
  signer: () => TokenSigner | undefined;
  stores: BoundStores;
  /** Feature gate ServiceAccountTokenNodeBinding: tokens may be bound to Nodes. */
  nodeBinding: () => boolean;
  now?: () => Date;
}): SubresourceCreate<ServiceAccount> {
  const now = deps.now ?? (() => new Date());
  return {
    group: AUTHENTICATION_GROUP, version: 'v1', kind: 'TokenRequest', alsoAccepts: [UPSTREAM_API_VERSION], schema, decodeProtobuf,
    async create(ctx: SubresourceCreateContext<ServiceAccount>, obj: ApiObject): Promise<ApiObject> {
      const signer = deps.signer();
      // Without a signing key the subresource is not served (upstream does not install it).
      if (!signer) throw errors.pathNotFound();
      const req = obj as TokenRequest;
      const errs: FieldError[] = [];
      if (req.metadata.name && req.metadata.name !== ctx.name) errs.push(fieldError.invalid('metadata.name', req.metadata.name, 'must match the service account name if specified'));
      if (req.metadata.namespace && req.metadata.namespace !== ctx.namespace) errs.push(fieldError.invalid('metadata.namespace', req.metadata.namespace, 'must match the service account namespace if specified'));
      if (errs.length) throw errors.invalid(groupKind, ctx.name, errs);
      const spec = req.spec ?? {};
      const requested = spec.expirationSeconds ?? DEFAULT_EXPIRATION_SECONDS;
      if (requested < MIN_EXPIRATION_SECONDS) errs.push(fieldError.invalid('spec.expirationSeconds', requested, 'may not specify a duration less than 10 minutes'));
      if (requested > MAX_EXPIRATION_SECONDS) errs.push(fieldError.invalid('spec.expirationSeconds', requested, 'may not specify a duration larger than 2^32 seconds'));
      // ValidateTokenRequest's errors name no object: upstream passes "" to NewInvalid.
      if (errs.length) throw errors.invalid(groupKind, '', errs);

      const sa = ctx.parent;
      const bound: BoundClaims = { namespace: ctx.namespace, serviceaccount: { name: sa.metadata.name ?? ctx.name, uid: sa.metadata.uid ?? '' } };
      if (spec.boundObjectRef) Object.assign(bound, await bindingFor(deps.stores, ctx.namespace, spec.boundObjectRef, deps.nodeBinding()));
      const audiences = spec.audiences?.length ? spec.audiences : [...signer.apiAudiences];
      let expirationSeconds = requested;
      if (signer.maxExpirationSeconds > 0 && requested > signer.maxExpirationSeconds) {
        ctx.warnings.push(`requested expiration of ${requested} seconds shortened to ${signer.maxExpirationSeconds} seconds`);
        expirationSeconds = signer.maxExpirationSeconds;
      }

      const issuedAt = now();
      const claims = makeClaims({ issuer: signer.issuer, audiences, now: issuedAt, expirationSeconds, bound });
      const expiry = new Date((claims['exp'] as number) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
      return {
        apiVersion: obj.apiVersion ?? `${AUTHENTICATION_GROUP}/v1`, kind: 'TokenRequest',
        metadata: { ...req.metadata, name: bound.serviceaccount.name, namespace: ctx.namespace, creationTimestamp: issuedAt.toISOString().replace(/\.\d{3}Z$/, 'Z') },
        spec: { audiences, expirationSeconds, boundObjectRef: spec.boundObjectRef ?? null },
        // A dry run validates and shapes the answer but signs nothing.
        status: { token: ctx.dryRun ? '' : signer.sign(claims), expirationTimestamp: expiry },
      };
    },
  };
}
