// The shape of the plat config file, checked by ajv before anything in it is used, and the
// rendering of ajv's errors as `<file>: <JSON pointer>: <problem>` lines. Two variants: data files
// (JSON, YAML, package.json) name plugins by module; JS and TS files may also hand over plugin
// objects, which ajv can only see as objects with a `name` (load-config checks `apply`).
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { ajvModule } from '../ajv-module.js';

export const ROLES = ['apiserver', 'controller-manager', 'nodeagent', 'all'] as const;
export type Role = (typeof ROLES)[number];

/** A flag default: a command-line text, a JSON value of the flag's type, a list or a map. */
const flagValue = {
  type: ['string', 'number', 'boolean', 'array', 'object'],
  items: { type: 'string' },
  // Map values may be booleans or numbers too: `feature-gates: { Foo: true }` reads naturally in YAML.
  additionalProperties: { type: ['string', 'number', 'boolean'] },
} as const;

const flags = { type: 'object', additionalProperties: flagValue } as const;

function pluginEntry(allowObjects: boolean) {
  return {
    type: allowObjects ? ['string', 'array', 'object'] : ['string', 'array'],
    minLength: 1,
    // [module] or [module, options]
    items: [{ type: 'string', minLength: 1 }, { type: 'object' }],
    minItems: 1,
    maxItems: 2,
    // An already-made plugin object (JS configs only); `apply` is checked in code.
    ...(allowObjects ? { required: ['name'], properties: { name: { type: 'string', minLength: 1 } } } : {}),
  };
}

function configSchema(allowObjects: boolean) {
  const section = {
    type: 'object',
    properties: {
      plugins: { type: 'array', items: pluginEntry(allowObjects) },
      flags,
    },
    additionalProperties: false,
  };
  return {
    type: 'object',
    properties: {
      ...section.properties,
      roles: {
        type: 'object',
        properties: Object.fromEntries(ROLES.map((r) => [r, section])),
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  };
}

// strictTuples is off only because `[module]` without options is a valid 1-or-2 tuple; every
// other strict-mode check stays on.
// Loaded and compiled on first use: most runs have no config file, and ajv (a CommonJS package,
// so require() can load it synchronously here) is some sixty modules, compiling ~0.1 s more.
let ajv: Ajv | undefined;
const validators: Partial<Record<'data' | 'code', ValidateFunction>> = {};
function validator(kind: 'data' | 'code'): ValidateFunction {
  ajv ??= new (ajvModule().Ajv)({ allErrors: true, strict: true, strictTuples: false, allowUnionTypes: true, verbose: true });
  return validators[kind] ??= ajv.compile(configSchema(kind === 'code'));
}

/**
 * Checks a loaded config against the schema. `fromCode` is true for JS/TS config files. Returns
 * the problems as `<pointer>: <message>` texts (empty when valid).
 */
export function validateConfigShape(config: unknown, fromCode: boolean): string[] {
  const validate = validator(fromCode ? 'code' : 'data');
  if (validate(config)) return [];
  const seen = new Set<string>();
  const out: string[] = [];
  for (const err of validate.errors ?? []) {
    const line = describe(err);
    if (!seen.has(line)) {
      seen.add(line);
      out.push(line);
    }
  }
  return out;
}

function describe(err: ErrorObject): string {
  const at = err.instancePath === '' ? '/' : err.instancePath;
  switch (err.keyword) {
    case 'type': {
      const t = err.params['type'] as string | string[];
      const types = Array.isArray(t) ? t : String(t).split(',');
      return `${at}: must be ${types.length > 1 ? `${types.slice(0, -1).join(', ')} or ${types.at(-1) ?? ''}` : types[0] ?? ''}`;
    }
    case 'additionalProperties': {
      const name = String(err.params['additionalProperty']);
      const parent = err.parentSchema as { properties?: Record<string, unknown> } | undefined;
      const allowed = Object.keys(parent?.properties ?? {});
      const where = `${err.instancePath}/${escapePointer(name)}`;
      return `${where}: unknown property${allowed.length > 0 ? ` (expected one of: ${allowed.join(', ')})` : ''}`;
    }
    case 'required':
      return `${at}: a plugin object must have a string "name" (and an "apply" function)`;
    default:
      return `${at}: ${err.message ?? err.keyword}`;
  }
}

/** RFC 6901 escaping of one reference token. */
export function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}
