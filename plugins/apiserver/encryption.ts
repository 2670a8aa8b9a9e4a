// --encryption-provider-config and --encryption-provider-config-automatic-reload: the file is read
// and checked at configure (a bad one refuses start-up, naming the file, the field and the
// problem); at start the store is wrapped so that each resource's values are written and read
// through its providers (core/storage/encryption). With automatic reload the file is watched and
// a changed, valid file applies to the next read or write; a bad one is logged and the current
// configuration stays. Without it the file is read once, as upstream.
import path from 'node:path';
import type { FlagSpec } from '../../core/flags/types.js';
import type { Logger } from '../../core/log.js';
import { StartupError } from '../../core/plugin.js';
import type { ResourceStore } from '../../core/registry/store.js';
import { EncryptingStorage } from '../../core/storage/encryption/encrypting-storage.js';
import { parseEncryptionConfiguration, readEncryptionConfigurationFile } from '../../core/storage/encryption/config.js';
import { IDENTITY, ResourceTransformers } from '../../core/storage/encryption/resource-transformers.js';
import type { RecordTransformation } from '../../core/storage/encryption/transformer.js';
import type { Storage } from '../../core/storage/storage.js';
import { WatchedFiles } from '../../core/tls/watched-files.js';
import { thrownMessage } from '../../core/thrown-message.js';

export const ENCRYPTION_FLAG = 'encryption-provider-config';
export const RELOAD_FLAG = 'encryption-provider-config-automatic-reload';
const SECTION = 'Store, encryption and leadership';

export const encryptionFlags: readonly FlagSpec[] = [
  { name: ENCRYPTION_FLAG, type: 'string', default: '', section: SECTION, help: 'Encryption provider configuration for secrets at rest.' },
  { name: RELOAD_FLAG, type: 'bool', default: false, section: SECTION, help: 'Reload on file change; disables unique identification of distinct KMS plugins via health endpoints.' },
];

export interface EncryptionConfig {
  readonly file: string;
  readonly reload: boolean;
  /** The file's bytes the transformers were made of: a reload compares with them. */
  readonly bytes: Buffer;
  readonly transformers: ResourceTransformers;
}

const load = (file: string, bytes: Buffer): ResourceTransformers => new ResourceTransformers(parseEncryptionConfiguration(bytes.toString('utf8'), file));

/** At configure: the file's transformers, or undefined without the flag. */
export function readEncryptionConfig(given: string, reload: boolean): EncryptionConfig | undefined {
  if (!given) {
    if (reload) throw new StartupError(`--${RELOAD_FLAG} must be set with --${ENCRYPTION_FLAG}`, 2);
    return undefined;
  }
  const file = path.resolve(given);
  try {
    const bytes = readEncryptionConfigurationFile(file);
    return { file, reload, bytes, transformers: load(file, bytes) };
  } catch (e) {
    throw new StartupError(`--${ENCRYPTION_FLAG} ${file}: error while parsing file: ${thrownMessage(e)}`);
  }
}

export interface EncryptedStorage {
  readonly storage: Storage;
  /** The stores made with `storage`, whose key prefixes name the resource of a key. */
  index(stores: Iterable<ResourceStore>): void;
  stop(): void;
}

/**
 * `storage` wrapped; until index() has been given the stores (which are made with it), a read or
 * write fails rather than take a Secret for a resource no entry names and store it in plaintext.
 */
export function encryptStorage(storage: Storage, config: EncryptionConfig, log: Logger, record?: RecordTransformation): EncryptedStorage {
  let byPrefix: Map<string, { group: string; resource: string }> | undefined;
  const resourceOf = (key: string) => {
    if (!byPrefix) throw new Error('encryption at rest: the resources are not known yet');
    // A resource's prefix is its key up to one of its first slashes: `/registry/secrets/`, `/registry/<group>/<plural>/`.
    for (let i = key.indexOf('/', 1); i >= 0; i = key.indexOf('/', i + 1)) {
      const gr = byPrefix.get(key.slice(0, i + 1));
      if (gr) return gr;
    }
    return undefined;
  };
  let current: () => ResourceTransformers = () => config.transformers;
  let stop = () => {};
  if (config.reload) {
    const files = new WatchedFiles<ResourceTransformers>({
      name: `${ENCRYPTION_FLAG}::${config.file}`,
      files: [config.file],
      parse: ([bytes]) => load(config.file, bytes ?? Buffer.alloc(0)),
      loadedMessage: 'Loaded new encryption config content',
      log,
      refused: (e) => log.error('reloading encryption config content failed, keeping the current one', { name: config.file, err: thrownMessage(e) }),
    }, { contents: [config.bytes], value: config.transformers });
    files.start();
    current = () => files.current();
    stop = () => files.stop();
  }
  const wrapped = new EncryptingStorage(storage, (key) => {
    const gr = resourceOf(key);
    return gr ? current().forResource(gr.group, gr.resource) : IDENTITY;
  }, record);
  return {
    storage: wrapped,
    index: (stores) => { byPrefix = new Map([...stores].map((s) => [s.prefixFor(''), { group: s.def.group, resource: s.def.plural }])); },
    stop: () => stop(),
  };
}
