// The EncryptionConfiguration file (upstream's apiserver.config.k8s.io/v1, plat's
// apiserver.platform/v1), YAML or JSON: decoded, then validated as upstream's
// ValidateEncryptionConfiguration does, with its field paths and texts. Unknown fields are ignored
// (upstream's decoder is not strict); a field of the wrong type is a problem. A key's secret is never
// shown: upstream's "REDACTED" stands for it.
import { readFileSync } from 'node:fs';
import { GO_YAML } from '../../api/go-yaml.js';
import { base64ErrorIndex } from '../../api/base64-error.js';
import { aggregateFieldErrors, fieldError, FieldPath, type FieldError } from '../../api/field-errors.js';
import { loadYamlFile } from '../../config/file-loaders.js';
import { osErrorText } from '../../go-os-error.js';
import { thrownMessage } from '../../thrown-message.js';

export const KIND = 'EncryptionConfiguration';
export const API_VERSION = 'apiserver.platform/v1';
const UPSTREAM_API_VERSION = 'apiserver.config.k8s.io/v1';

export type ProviderType = 'aescbc' | 'aesgcm' | 'secretbox' | 'identity' | 'kms';
/** Upstream's field order, which is also the order its single-provider check names them in. */
const PROVIDER_TYPES: readonly ProviderType[] = ['kms', 'aesgcm', 'aescbc', 'secretbox', 'identity'];

export interface Key { readonly name: string; readonly secret: Buffer }
export interface Provider { readonly type: ProviderType; readonly keys: readonly Key[] }
export interface ResourceConfiguration { readonly resources: readonly string[]; readonly providers: readonly Provider[] }
export interface EncryptionConfiguration { readonly resources: readonly ResourceConfiguration[] }

/** A file that cannot be used, its message naming what is wrong (the caller names the file or flag). */
export class EncryptionConfigError extends Error {
  override readonly name = 'EncryptionConfigError';
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const absent = (v: unknown): boolean => v === undefined || v === null;

const AES_KEY_SIZES = [16, 24, 32];
const SECRETBOX_KEY_SIZES = [32];

/** Reads the file's bytes: a file that cannot be read as upstream's loader says it. */
export function readEncryptionConfigurationFile(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (e) {
    throw new EncryptionConfigError(`error opening encryption provider configuration file ${JSON.stringify(file)}: ${osErrorText('open', file, e)}`);
  }
}

/** Decodes and validates the file's text; throws EncryptionConfigError with every problem found. */
export function parseEncryptionConfiguration(text: string, file: string): EncryptionConfiguration {
  if (text.length === 0) throw new EncryptionConfigError(`encryption provider configuration file ${JSON.stringify(file)} is empty`);
  let doc: unknown;
  try {
    doc = loadYamlFile(file, text, GO_YAML);
  } catch (e) {
    throw new EncryptionConfigError(thrownMessage(e));
  }
  if (!isObj(doc)) throw new EncryptionConfigError(`${file}: not an ${KIND} (expected a mapping with apiVersion, kind and resources)`);
  const { kind, apiVersion } = doc;
  // Upstream's "Object 'Kind' is missing in '<the file>'" would print the keys: named, not quoted.
  if (absent(kind) || kind === '') throw new EncryptionConfigError(`kind: Required value: "${KIND}"`);
  if (absent(apiVersion) || apiVersion === '') throw new EncryptionConfigError(`apiVersion: Required value: "${API_VERSION}"`);
  if (kind !== KIND) throw new EncryptionConfigError(`kind: Unsupported value: ${JSON.stringify(kind)}: supported values: "${KIND}"`);
  if (apiVersion !== API_VERSION) {
    const hint = apiVersion === UPSTREAM_API_VERSION ? ` (plat's group is apiserver.platform: "${API_VERSION}")` : '';
    throw new EncryptionConfigError(`apiVersion: Unsupported value: ${JSON.stringify(apiVersion)}: supported values: "${API_VERSION}"${hint}`);
  }
  const decoded = decode(doc);
  const errs = validate(decoded.config, decoded.raw);
  if (decoded.problems.length > 0) throw new EncryptionConfigError(decoded.problems.join('\n'));
  if (errs.length > 0) throw new EncryptionConfigError(aggregateFieldErrors(errs));
  return decoded.config;
}

interface RawProvider { readonly present: readonly ProviderType[]; readonly keys: readonly { name: string; secret: string }[] }

/** The typed configuration, the providers as written (for validation), and type problems. */
function decode(doc: Obj): { config: EncryptionConfiguration; raw: RawProvider[][]; problems: string[] } {
  const problems: string[] = [];
  const list = (v: unknown, path: string): unknown[] => {
    if (absent(v)) return [];
    if (Array.isArray(v)) return v;
    problems.push(`${path}: must be a list`);
    return [];
  };
  const object = (v: unknown, path: string): Obj => {
    if (isObj(v)) return v;
    if (!absent(v)) problems.push(`${path}: must be an object`);
    return {};
  };
  const string = (v: unknown, path: string): string => {
    if (typeof v === 'string') return v;
    if (!absent(v)) problems.push(`${path}: must be a string`);
    return '';
  };
  const raw: RawProvider[][] = [];
  const resources = list(doc['resources'], 'resources').map((entry, i): ResourceConfiguration => {
    const path = `resources[${i}]`;
    const o = object(entry, path);
    const names = list(o['resources'], `${path}.resources`).map((r, j) => string(r, `${path}.resources[${j}]`));
    const rawProviders: RawProvider[] = [];
    const providers = list(o['providers'], `${path}.providers`).map((p, j): Provider => {
      const pp = `${path}.providers[${j}]`;
      const po = object(p, pp);
      const present = PROVIDER_TYPES.filter((t) => !absent(po[t]));
      const type = present[0] ?? 'identity';
      const keys = type === 'identity' || type === 'kms' ? [] : list(object(po[type], `${pp}.${type}`)['keys'], `${pp}.${type}.keys`).map((k, n) => {
        const kp = `${pp}.${type}.keys[${n}]`;
        const ko = object(k, kp);
        return { name: string(ko['name'], `${kp}.name`), secret: string(ko['secret'], `${kp}.secret`) };
      });
      rawProviders.push({ present, keys });
      return { type, keys: keys.map((k) => ({ name: k.name, secret: base64ErrorIndex(k.secret) === -1 ? Buffer.from(k.secret, 'base64') : Buffer.alloc(0) })) };
    });
    raw.push(rawProviders);
    return { resources: names, providers };
  });
  return { config: { resources }, raw, problems };
}

/** Upstream's ParseGroupResource: the resource before the first dot, the group after it. */
export function parseGroupResource(s: string): { group: string; resource: string } {
  const dot = s.indexOf('.');
  return dot < 0 ? { group: '', resource: s } : { group: s.slice(dot + 1), resource: s.slice(0, dot) };
}

function validate(config: EncryptionConfiguration, raw: readonly (readonly RawProvider[])[]): FieldError[] {
  const root = FieldPath.root('resources');
  const errs: FieldError[] = [];
  if (config.resources.length === 0) return [fieldError.required(root.text, `at least one ${root.text} is required`)];
  config.resources.forEach((conf, i) => {
    const r = root.index(i).child('resources');
    const p = root.index(i).child('providers');
    if (conf.resources.length === 0) errs.push(fieldError.required(r.text, `at least one ${r.text} is required`));
    errs.push(...resourceOverlap(conf.resources, r), ...resourceNames(conf.resources, r));
    if (conf.providers.length === 0) errs.push(fieldError.required(p.text, `at least one ${p.text} is required`));
    raw[i]!.forEach((provider, j) => {
      const path = p.index(j);
      if (provider.present.length !== 1) {
        errs.push(fieldError.invalid(path.text, provider.present, provider.present.length === 0
          ? 'provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity'
          : 'more than one provider specified in a single element, should split into different list elements'));
        return;
      }
      const type = provider.present[0]!;
      if (type === 'kms') errs.push(fieldError.forbidden(path.child('kms').text, 'KMS providers are not supported by plat (it has no KMS plugin client): use aesgcm, aescbc or secretbox'));
      else if (type !== 'identity') errs.push(...validateKeys(provider.keys, path.child(type).child('keys'), type === 'secretbox' ? SECRETBOX_KEY_SIZES : AES_KEY_SIZES));
    });
  });
  return errs;
}

function resourceOverlap(resources: readonly string[], path: FieldPath): FieldError[] {
  if (resources.length < 2) return [];
  const grs = resources.map(parseGroupResource);
  let duplicate = false;
  let overlap = false;
  grs.forEach((a, i) => grs.forEach((b, j) => {
    if (i === j) return;
    if (a.group === b.group && a.resource === b.resource) { duplicate = true; return; }
    if (a.group === '*' && a.resource === '*') overlap = true;
    else if (a.group === b.group && (a.resource === '*' || b.resource === '*')) overlap = true;
  }));
  const errs: FieldError[] = [];
  if (duplicate) errs.push(fieldError.invalid(path.text, resources, 'the same resource cannot be specified multiple times'));
  if (overlap) errs.push(fieldError.invalid(path.text, resources, "using overlapping resources such as 'secrets' and '*.' in the same resource list is not allowed as they will be masked"));
  return errs;
}

function resourceNames(resources: readonly string[], path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  resources.forEach((res, j) => {
    const at = path.index(j).text;
    const gr = parseGroupResource(res);
    let problem: string | undefined;
    if (res.toLowerCase() !== res) problem = 'resource name should not contain capital letters';
    else if (res === '*') problem = "use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources";
    else if (['apiserveripinfo', 'serviceipallocations', 'servicenodeportallocations'].includes(res)) problem = 'resources which do not have REST API/s cannot be encrypted';
    else if (gr.group === 'events.k8s.io') problem = "'*.events.k8s.io' objects are stored using the 'events' API group in etcd. Use 'events' instead in the config file";
    else if (gr.group === 'extensions') problem = "'extensions' group has been removed and cannot be used for encryption";
    else if (gr.group === '*' && gr.resource !== '*') problem = 'encrypting the same resource across groups is not supported';
    if (problem) errs.push(fieldError.invalid(at, res, problem));
  });
  return errs;
}

function validateKeys(keys: readonly { name: string; secret: string }[], path: FieldPath, sizes: readonly number[]): FieldError[] {
  if (keys.length === 0) return [fieldError.required(path.text, 'at least one keys is required')];
  const errs: FieldError[] = [];
  keys.forEach((key, i) => {
    const at = path.index(i);
    if (key.name === '') errs.push(fieldError.required(at.child('name').text, 'name is a mandatory field for a key'));
    if (key.secret === '') {
      errs.push(fieldError.required(at.child('secret').text, 'secret is a mandatory field for a key'));
      return;
    }
    if (base64ErrorIndex(key.secret) !== -1) {
      errs.push(fieldError.invalid(at.child('secret').text, 'REDACTED', 'secrets must be base64 encoded'));
      return;
    }
    const length = Buffer.from(key.secret, 'base64').length;
    if (!sizes.includes(length)) {
      errs.push(fieldError.invalid(at.child('secret').text, 'REDACTED', `secret is not of the expected length, got ${length}, expected one of [${sizes.join(' ')}]`));
    }
  });
  return errs;
}
