// coordination.platform/v1 Lease: a named, timed claim (leader election, node heartbeats), served
// as upstream serves it: spec.leaseDurationSeconds > 0, leaseTransitions >= 0, MicroTime stamps,
// names DNS subdomains, Table columns NAME HOLDER AGE.
import { fieldError, type FieldError } from '../../core/api/field-errors.js';
import type { ApiObject } from '../../core/api/meta.js';
import { typeMetaProperties } from '../../core/api/object-meta-schema.js';
import { MICRO_TIME_GO_TYPE } from '../../core/api/go-time-fields.js';
import { age } from '../../core/api/human-duration.js';
import { nameIsDnsSubdomain } from '../../core/api/selectors/label-syntax.js';
import type { JsonSchema, ResourceDefinition, TableColumn } from '../../core/registry/resource.js';
import type { Strategy } from '../../core/registry/strategy.js';
import { CREATION_TIMESTAMP_DESCRIPTION, NAME_DESCRIPTION } from '../../core/api/object-meta-docs.js';

export interface LeaseSpec {
  holderIdentity?: string | null;
  leaseDurationSeconds?: number | null;
  acquireTime?: string | null;
  renewTime?: string | null;
  leaseTransitions?: number | null;
  strategy?: string | null;
  preferredHolder?: string | null;
}
export interface Lease extends ApiObject { spec?: LeaseSpec }

const DESCRIPTION = 'Lease defines a lease concept.';
const HOLDER_DESCRIPTION = 'holderIdentity contains the identity of the holder of a current lease. If Coordinated Leader Election is used, the holder identity must be equal to the elected LeaseCandidate.metadata.name field.';
const microTime: JsonSchema = {
  type: 'string', format: 'date-time', 'x-go-type': MICRO_TIME_GO_TYPE, description: 'MicroTime is version of Time with microsecond level precision.',
};

const schema: JsonSchema = {
  type: 'object', 'x-go-type': 'v1.Lease', description: DESCRIPTION,
  properties: {
    ...typeMetaProperties,
    spec: {
      type: 'object',
      'x-go-type': 'v1.LeaseSpec',
      description: 'spec contains the specification of the Lease.',
      properties: {
        holderIdentity: { type: 'string', description: HOLDER_DESCRIPTION },
        leaseDurationSeconds: { type: 'integer', format: 'int32', description: 'leaseDurationSeconds is a duration that candidates for a lease need to wait to force acquire it.' },
        acquireTime: { ...microTime, description: 'acquireTime is a time when the current lease was acquired.' },
        renewTime: { ...microTime, description: 'renewTime is a time when the current holder of a lease has last updated the lease.' },
        leaseTransitions: { type: 'integer', format: 'int32', description: 'leaseTransitions is the number of transitions of a lease between holders.' },
        strategy: { type: 'string', 'x-go-type': 'v1.CoordinatedLeaseStrategy', description: 'Strategy indicates the strategy for picking the leader for coordinated leader election.' },
        preferredHolder: { type: 'string', description: 'PreferredHolder signals to a lease holder that the lease has a more optimal holder and should be given up.' },
      },
    },
  },
};

function validate(obj: Lease): FieldError[] {
  const errs: FieldError[] = [];
  const s = obj.spec ?? {};
  if (s.leaseDurationSeconds !== undefined && s.leaseDurationSeconds !== null && s.leaseDurationSeconds <= 0) {
    errs.push(fieldError.invalid('spec.leaseDurationSeconds', s.leaseDurationSeconds, 'must be greater than 0'));
  }
  if (s.leaseTransitions !== undefined && s.leaseTransitions !== null && s.leaseTransitions < 0) {
    errs.push(fieldError.invalid('spec.leaseTransitions', s.leaseTransitions, 'must be greater than or equal to 0'));
  }
  return errs;
}

// spec is a struct, not a pointer, in Go: always written, `{}` when empty.
const withSpec = (o: Lease): LeaseSpec => (o.spec ??= {});

// strategy and preferredHolder belong to Coordinated Leader Election, a gate off by default in 1.32
// (alpha): upstream's strategy drops them on create, and on update keeps only what was stored.
const strategy: Strategy<Lease> = {
  prepareForCreate: (_c, o) => {
    const s = withSpec(o);
    delete s.strategy;
    delete s.preferredHolder;
  },
  validate: (_c, o) => validate(o),
  prepareForUpdate: (_c, o, old) => {
    const s = withSpec(o);
    if (old.spec?.strategy == null) delete s.strategy;
    if (old.spec?.preferredHolder == null) delete s.preferredHolder;
  },
  validateUpdate: (_c, o) => validate(o),
};

const column = (name: string, description: string, format = ''): TableColumn => ({ name, type: 'string', format, description, priority: 0 });

export const leaseResource: ResourceDefinition<Lease> = {
  group: 'coordination.platform', version: 'v1', kind: 'Lease', listKind: 'LeaseList', plural: 'leases', singular: 'lease',
  scope: 'Namespaced', schema, description: DESCRIPTION, strategy, defaultFieldLabelConversion: true,
  // As upstream's leaseStrategy: a PUT may create one, and an update must name the version it replaces.
  allowCreateOnUpdate: true, allowUnconditionalUpdate: false,
  table: {
    columns: [
      column('Name', NAME_DESCRIPTION, 'name'),
      column('Holder', HOLDER_DESCRIPTION),
      column('Age', CREATION_TIMESTAMP_DESCRIPTION),
    ],
    cells: (o, now) => [o.metadata.name ?? '', o.spec?.holderIdentity ?? '', age(o.metadata.creationTimestamp, now)],
  },
  validateName: nameIsDnsSubdomain,
};
