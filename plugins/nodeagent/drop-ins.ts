// --config-dir: upstream's mergeKubeletConfigurations. The directory is walked in lexical order
// (subdirectories included, as filepath.WalkDir does); files without the `.conf` extension are
// skipped; each drop-in must name apiVersion nodeagent.config.platform/v1beta1 and kind
// NodeAgentConfiguration and is applied as a JSON merge patch over the configuration so far (maps
// merge key by key, lists are replaced, `null` removes a field so that its default applies again).
// Unlike upstream, a drop-in's values are type-checked on their own so that a bad one names its
// file, and its unknown fields are reported rather than silently dropped.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../core/log.js';
import { CONFIG_API_VERSION, CONFIG_KIND } from '../../core/nodeagent/fields.js';
import { ConfigFileError, gvkText, osErrorText, readDocument } from './config-file.js';
import type { JsonObject } from './decode.js';

const EXTENSION = '.conf';

export interface DropIn { readonly file: string; readonly patch: JsonObject }

/** Files of `dir` in WalkDir order: entries sorted by name, directories entered where they sort. */
function walk(dir: string): string[] {
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return entries.flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? walk(p) : [p];
  });
}

/** Reads every drop-in of `dir` in order; throws ConfigFileError with upstream's texts (plus the file for type errors). */
export function readDropIns(dir: string, logger: Logger): DropIn[] {
  let files: string[];
  try {
    if (!statSync(dir).isDirectory()) throw Object.assign(new Error(), { code: 'ENOTDIR' });
    files = walk(dir);
  } catch (e) {
    if (e instanceof ConfigFileError) throw e;
    throw new ConfigFileError(`failed to walk through nodeagent dropin directory "${dir}": ${osErrorText('lstat', dir, e)}`);
  }
  const dropIns: DropIn[] = [];
  for (const file of files) {
    if (path.extname(file) !== EXTENSION) {
      logger.v(4).info('Skipped file in drop-in directory (does not have .conf extension)', { file });
      continue;
    }
    const fail = (detail: string) => new ConfigFileError(`failed to load nodeagent dropin file, path: ${file}, ${detail}`);
    let doc;
    try {
      doc = readDocument(path.resolve(file), 'drop-in config');
    } catch (e) {
      if (e instanceof ConfigFileError) throw fail(`error: ${e.message}`);
      throw e;
    }
    if (!doc.apiVersion || !doc.kind) throw fail('no apiVersion/kind');
    if (doc.apiVersion !== CONFIG_API_VERSION || doc.kind !== CONFIG_KIND) throw fail(`unknown apiVersion/kind: ${gvkText(doc.apiVersion, doc.kind)}`);
    if (doc.decoded.fatal.length) throw fail(`error: failed to decode: ${doc.decoded.fatal.join('; ')}`);
    if (doc.decoded.strict.length) {
      logger.warn('Ignoring fields of a drop-in that decoding does not accept', { file, err: `strict decoding error: ${doc.decoded.strict.join(', ')}` });
    }
    dropIns.push({ file, patch: doc.raw });
  }
  return dropIns;
}
