// Which providers each resource is written and read with: upstream's per-GroupResource
// transformers (encryptionconfig's getTransformerOverrides and transformerFromOverrides), from a
// validated EncryptionConfiguration. A resource takes its own entry, else its group's `*.group`,
// else `*.*`, else identity that refuses encrypted values.
import { cbcTransformer, gcmTransformer } from './aes.js';
import { secretboxTransformer } from './secretbox.js';
import { aggregateError, PrefixTransformers, secondsSince, type PrefixTransformer, type RecordTransformation, type Transformer } from './transformer.js';
import { EncryptionConfigError, parseGroupResource, type EncryptionConfiguration, type Provider } from './config.js';

/** Upstream reserves it for encrypted data: identity refuses to read a value that starts with it. */
export const ENCRYPTED_PREFIX = 'k8s:enc:';
const PREFIX: Readonly<Record<'aescbc' | 'aesgcm' | 'secretbox', string>> = {
  aescbc: 'k8s:enc:aescbc:v1:', aesgcm: 'k8s:enc:aesgcm:v1:', secretbox: 'k8s:enc:secretbox:v1:',
};

/**
 * A stored value as read: an encrypted one is a string (its prefixes and base64); a plaintext one
 * is the object itself, handed on untouched. `stale`: read by another provider or key than the one
 * writes use now (upstream's transformer `stale`), so a rewrite of it must be written even when the
 * object is unchanged (etcd3's GuaranteedUpdate): that is how a key rotation migrates data.
 */
export type ReadValue = ({ readonly text: string } | { readonly plain: unknown }) & { readonly stale: boolean };

export interface ResourceTransformer {
  /** What a stored value holds; throws with upstream's message when no provider can read it. */
  read(stored: unknown, authenticatedData: Buffer, record?: RecordTransformation): ReadValue;
  /** The value to store for JSON text `plain`, or undefined to store it as it is (identity first). */
  write(plain: string, authenticatedData: Buffer, record?: RecordTransformation): string | undefined;
}

const isEncrypted = (stored: unknown): stored is string => typeof stored === 'string' && stored.startsWith(ENCRYPTED_PREFIX);

/** Upstream's identity.NewEncryptCheckTransformer, the transformer of a resource no entry names. */
export const IDENTITY: ResourceTransformer = {
  read(stored) {
    if (isEncrypted(stored)) throw new Error('identity transformer tried to read encrypted data');
    return { plain: stored, stale: false };
  },
  write: () => undefined,
};

type Entry = { readonly identity: true } | PrefixTransformer;

/** Upstream's top-level prefixTransformers, where identity's empty prefix matches what is not encrypted. */
class ProviderList implements ResourceTransformer {
  constructor(private readonly entries: readonly Entry[]) {}

  read(stored: unknown, authenticatedData: Buffer, record?: RecordTransformation): ReadValue {
    const start = process.hrtime.bigint();
    const errors: unknown[] = [];
    for (const [i, e] of this.entries.entries()) {
      if ('identity' in e) {
        // Its refusal of encrypted data is no error (nor recorded): the providers after it are tried.
        if (isEncrypted(stored)) continue;
        record?.('from_storage', 'identity', secondsSince(start), true);
        return { plain: stored, stale: i !== 0 };
      }
      if (typeof stored !== 'string' || !stored.startsWith(e.prefix)) continue;
      try {
        const data = stored.slice(e.prefix.length);
        let out: ReadValue;
        if (e.transformer instanceof PrefixTransformers) {
          const { text, index } = e.transformer.fromStorageAt(data, authenticatedData, record);
          out = { text, stale: i !== 0 || index !== 0 };
        } else {
          out = { text: e.transformer.fromStorage(data, authenticatedData), stale: i !== 0 };
        }
        record?.('from_storage', e.prefix, secondsSince(start), true);
        return out;
      } catch (err) {
        record?.('from_storage', e.prefix, secondsSince(start), false);
        errors.push(err);
      }
    }
    if (errors.length > 0) throw aggregateError(errors);
    record?.('from_storage', 'unknown', secondsSince(start), false);
    throw new Error('no matching prefix found');
  }

  write(plain: string, authenticatedData: Buffer, record?: RecordTransformation): string | undefined {
    const start = process.hrtime.bigint();
    const first = this.entries[0]!;
    if ('identity' in first) {
      record?.('to_storage', '', secondsSince(start), true);
      return undefined;
    }
    const inner = first.transformer instanceof PrefixTransformers
      ? first.transformer.toStorage(plain, authenticatedData, record) : first.transformer.toStorage(plain, authenticatedData);
    record?.('to_storage', first.prefix, secondsSince(start), true);
    return first.prefix + inner;
  }
}

function providerEntry(p: Provider): Entry {
  if (p.type === 'identity') return { identity: true };
  if (p.type === 'kms') throw new EncryptionConfigError('KMS providers are not supported by plat');
  const leaf = (secret: Buffer): Transformer =>
    p.type === 'aescbc' ? cbcTransformer(secret) : p.type === 'aesgcm' ? gcmTransformer(secret) : secretboxTransformer(secret);
  const name = p.type === 'secretbox' ? 'Secretbox' : 'AES';
  const keys = new PrefixTransformers(p.keys.map((k) => ({ prefix: `${k.name}:`, transformer: leaf(k.secret) })),
    `no matching key was found for the provided ${name} transformer`);
  return { prefix: PREFIX[p.type], transformer: keys };
}

const grText = (group: string, resource: string): string => (group === '' && resource === '*' ? '*.' : group === '' ? resource : `${resource}.${group}`);

/** The transformers of a validated configuration, by resource. */
export class ResourceTransformers {
  readonly #byResource = new Map<string, ResourceTransformer>();

  constructor(config: EncryptionConfiguration) {
    const lists = new Map<string, Entry[]>();
    for (const conf of config.resources) {
      const entries = conf.providers.map(providerEntry);
      for (const r of conf.resources) {
        const { group, resource } = parseGroupResource(r);
        // Upstream 1.32: an entry after a wildcard that already covers it would never apply.
        for (const [g, res] of [[group, '*'], ['*', '*']] as const) {
          if (lists.has(`${g}/${res}`)) {
            throw new EncryptionConfigError(`resource ${JSON.stringify(grText(group, resource))} is masked by earlier rule ${JSON.stringify(grText(g, res))}`);
          }
        }
        const key = `${group}/${resource}`;
        lists.set(key, [...(lists.get(key) ?? []), ...entries]);
      }
    }
    for (const [key, entries] of lists) this.#byResource.set(key, new ProviderList(entries));
  }

  /** The transformer of `resource` in `group` ('' for the core group). */
  forResource(group: string, resource: string): ResourceTransformer {
    return this.#byResource.get(`${group}/${resource}`) ?? this.#byResource.get(`${group}/*`) ?? this.#byResource.get('*/*') ?? IDENTITY;
  }
}

