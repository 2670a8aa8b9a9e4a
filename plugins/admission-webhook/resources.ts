// The two configuration resources (cluster-scoped, names are DNS subdomains, short of upstream's
// none) with their strategies: defaults, then validation with upstream's create and update rules.
// As upstream's, an update must name the resourceVersion it read (a webhook configuration is
// security policy: a blind overwrite could drop a webhook added meanwhile), and metadata.generation
// starts at 1 and counts the changes of the webhooks.
import { isDeepStrictEqual } from 'node:util';
import { age } from '../../core/api/human-duration.js';
import { nameIsDnsSubdomain } from '../../core/api/selectors/label-syntax.js';
import type { ResourceDefinition, TableColumn } from '../../core/registry/resource.js';
import type { Strategy } from '../../core/registry/strategy.js';
import { applyDefaults } from './defaults.js';
import { MUTATING_DESCRIPTION, mutatingConfigurationSchema, VALIDATING_DESCRIPTION, validatingConfigurationSchema } from './schema.js';
import { GROUP, VERSION, type WebhookConfiguration, type WebhookKind } from './types.js';
import { updateOptions, validateConfiguration } from './validation.js';
import { CREATION_TIMESTAMP_DESCRIPTION, NAME_DESCRIPTION } from '../../core/api/object-meta-docs.js';

const NAME_COLUMN: TableColumn = { name: 'Name', type: 'string', format: 'name', priority: 0, description: NAME_DESCRIPTION };
const WEBHOOKS_COLUMN: TableColumn = { name: 'Webhooks', type: 'integer', format: '', priority: 0, description: 'Webhooks indicates the number of webhooks registered in this configuration' };
const AGE_COLUMN: TableColumn = { name: 'Age', type: 'string', format: '', priority: 0, description: CREATION_TIMESTAMP_DESCRIPTION };

function strategy(mutating: boolean): Strategy<WebhookConfiguration> {
  return {
    prepareForCreate(_ctx, obj) {
      obj.metadata.generation = 1;
    },
    validate: (_ctx, obj) => validateConfiguration(obj, mutating),
    prepareForUpdate(_ctx, obj, old) {
      // Upstream's strategy: a change of the webhooks is a new generation.
      if (!isDeepStrictEqual(obj.webhooks ?? [], old.webhooks ?? [])) obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
    },
    validateUpdate: (_ctx, obj, old) => validateConfiguration(obj, mutating, updateOptions(obj, old)),
  };
}

function definition(kind: WebhookKind): ResourceDefinition<WebhookConfiguration> {
  const mutating = kind === 'MutatingWebhookConfiguration';
  const plural = mutating ? 'mutatingwebhookconfigurations' : 'validatingwebhookconfigurations';
  return {
    group: GROUP, version: VERSION, kind, listKind: `${kind}List`, plural, singular: plural.slice(0, -1),
    scope: 'Cluster',
    schema: mutating ? mutatingConfigurationSchema : validatingConfigurationSchema,
    description: mutating ? MUTATING_DESCRIPTION : VALIDATING_DESCRIPTION,
    strategy: strategy(mutating),
    defaults: (obj) => applyDefaults(obj, mutating),
    table: {
      columns: [NAME_COLUMN, WEBHOOKS_COLUMN, AGE_COLUMN],
      cells: (obj, now) => [obj.metadata.name ?? '', Array.isArray(obj.webhooks) ? obj.webhooks.length : 0, age(obj.metadata.creationTimestamp, now)],
    },
    validateName: nameIsDnsSubdomain,
    allowUnconditionalUpdate: false,
  };
}

export const validatingWebhookConfigurationResource = definition('ValidatingWebhookConfiguration');
export const mutatingWebhookConfigurationResource = definition('MutatingWebhookConfiguration');
