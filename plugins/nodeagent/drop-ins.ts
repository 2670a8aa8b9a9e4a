// --config-dir: upstream's mergeKubeletConfigurations. The directory is walked in lexical order
// (subdirectories included, as filepath.WalkDir does; a file given as the directory is its only
// entry); files without the `.conf` extension are skipped; each drop-in is decoded into a map, so it
// needs a kind and must not repeat a key (`strict decoding error: yaml: unmarshal errors: ...`), and
// is applied as a JSON merge patch over the configuration so far (maps merge key by key, lists are
// replaced, `null` removes a field so that its default applies again). Every error names the
// directory as given: `failed to walk through nodeagent dropin directory "d": ...`.
// Unlike upstream, plat also wants apiVersion nodeagent.config.platform/v1beta1 and kind
// NodeAgentConfiguration, type-checks a drop-in's values on their own so that a bad one names its
// file, and logs its unknown fields rather than silently dropping them.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../core/log.js';
import { CONFIG_API_VERSION, CONFIG_KIND } from '../../core/nodeagent/fields.js';
import { ConfigFileError, gvkText, osErrorText, readDocument } from './config-file.js';
import type { JsonObject } from './decode.js';

const EXTENSION = '.conf';

export interface DropIn { readonly file: string; readonly patch: JsonObject }

/** Files of `dir` in WalkDir order: entries sorted by name, directories entered where they sort. */
function walk(dir: string, cwd: string): string[] {
  const entries = readdirSync(path.resolve(cwd, dir), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return entries.flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? walk(p, cwd) : [p];
  });
}

/**
 * Reads every drop-in of `dir` (as given, relative to `cwd`) in order; throws ConfigFileError
 * with upstream's texts (plus the file for type errors).
 */
export function readDropIns(dir: string, cwd: string, logger: Logger): DropIn[] {
  const walkError = (detail: string) => new ConfigFileError(`failed to walk through nodeagent dropin directory "${dir}": ${detail}`);
  let files: string[];
  try {
    files = statSync(path.resolve(cwd, dir)).isDirectory() ? walk(dir, cwd) : [dir];
  } catch (e) {
    throw walkError(osErrorText('lstat', dir, e));
  }
  const dropIns: DropIn[] = [];
  for (const file of files) {
    if (path.extname(file) !== EXTENSION) {
      logger.v(4).info('Skipped file in drop-in directory (does not have .conf extension)', { file });
      continue;
    }
    const fail = (detail: string) => walkError(`failed to load nodeagent dropin file, path: ${file}, ${detail}`);
    let doc;
    try {
      doc = readDocument(path.resolve(cwd, file), 'drop-in config');
    } catch (e) {
      if (e instanceof ConfigFileError) throw fail(`error: ${e.message}`);
      throw e;
    }
    if (doc.decoded.duplicates.length) throw fail(`error: strict decoding error: ${doc.decoded.duplicates.join(', ')}`);
    const { apiVersion, kind } = doc.raw;
    if (apiVersion !== CONFIG_API_VERSION || kind !== CONFIG_KIND) throw fail(`unknown apiVersion/kind: ${gvkText(apiVersion, kind)}`);
    if (doc.decoded.fatal.length) throw fail(`error: failed to decode: ${doc.decoded.fatal.join('; ')}`);
    const unknown = doc.decoded.strict.filter((e) => !doc.decoded.duplicates.includes(e));
    if (unknown.length) {
      logger.warn('Ignoring fields of a drop-in that decoding does not accept', { file, err: `strict decoding error: ${unknown.join(', ')}` });
    }
    dropIns.push({ file, patch: doc.raw });
  }
  return dropIns;
}
