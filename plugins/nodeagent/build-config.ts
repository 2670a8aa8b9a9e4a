// The node agent's configuration, built as upstream's NewKubeletCommand builds it, in this order:
//   1. the defaults: with --config, the file's (SetDefaults over the decoded file, then the default
//      evictionHard, then relative paths resolved against the file's directory); without it, the
//      option defaults (the file defaults plus upstream's "legacy" ones: anonymous auth on, token
//      webhook off, authorization AlwaysAllow, read-only port 10255);
//   2. the --config-dir drop-ins, merged in lexical order, then defaulted again;
//   3. the flags the operator gave (on the command line or in plat's config file), each overriding
//      the field it is bound to; --feature-gates adds to the file's gates;
//   4. the feature gates, then every validation rule, all problems reported together.
// Every step's failure is a ConfigurationError with upstream's text; warnings go to the logger.
import path from 'node:path';
import type { FlagSet } from '../../core/flags/types.js';
import type { Logger } from '../../core/log.js';
import type { NodeAgentConfiguration } from '../../core/nodeagent/configuration.js';
import { versionedConfiguration } from '../../core/nodeagent/configz.js';
import { FeatureGates } from '../../core/nodeagent/feature-gates.js';
import { ConfigDecodeError, ConfigFileError, readDocument, resolveRelativePaths } from './config-file.js';
import { decodeConfiguration, isObject, type Json, type JsonObject } from './decode.js';
import { defaultEvictionHard, setDefaults } from './defaulting.js';
import { readDropIns } from './drop-ins.js';
import { NODEAGENT_FLAGS } from './flag-specs.js';
import { mergePatch, patchedPaths } from './merge-patch.js';
import { ConfigSources } from './sources.js';
import { validateConfiguration, type Problem } from './validation.js';
import { configurationWarnings } from './validation-extra.js';
import { aggregate } from '../../core/aggregate.js';

/** A configuration problem at start-up: exit code 1, as upstream. */
export class ConfigurationError extends Error {
  readonly exitCode = 1;
}

export interface BuildInput {
  readonly flags: FlagSet;
  readonly cwd: string;
  readonly logger: Logger;
}

export interface BuiltConfiguration {
  readonly config: NodeAgentConfiguration;
  readonly gates: FeatureGates;
  readonly sources: ConfigSources;
  /** The --config file, absolute. */
  readonly configFile?: string;
}

function setPath(o: JsonObject, dotted: string, value: Json): void {
  const parts = dotted.split('.');
  let holder = o;
  for (const part of parts.slice(0, -1)) {
    if (!isObject(holder[part])) holder[part] = {};
    holder = holder[part] as JsonObject;
  }
  holder[parts[parts.length - 1]!] = value;
}

/** The option defaults: what the node agent runs with when no --config is given. */
export function legacyDefaults(gates = FeatureGates.defaults()): JsonObject {
  const o: JsonObject = {};
  setDefaults(o, gates);
  defaultEvictionHard(o);
  const authn = o['authentication'] as JsonObject;
  (authn['anonymous'] as JsonObject)['enabled'] = true;
  (authn['webhook'] as JsonObject)['enabled'] = false;
  (o['authorization'] as JsonObject)['mode'] = 'AlwaysAllow';
  o['readOnlyPort'] = 10255;
  return o;
}

/** The operator's --feature-gates (flag parsing has checked the values). */
function flagGates(flags: FlagSet): Record<string, boolean> {
  const spec = NODEAGENT_FLAGS.find((f) => f.spec.name === 'feature-gates')!;
  return flags.isSetByOperator('feature-gates') ? (spec.toField!(flags.get('feature-gates')) as Record<string, boolean>) : {};
}

function loadMainFile(given: string, cwd: string, gates: Record<string, boolean>, logger: Logger, sources: ConfigSources): JsonObject {
  const file = path.resolve(cwd, given);
  // loadConfigFile's errFmt inside its caller's wrapper; Go's %v, so no colon after the inner `error`.
  const fail = (detail: string) => new ConfigurationError(`failed to load nodeagent config file, path: ${given}, error: failed to load NodeAgent config file ${given}, error ${detail}`);
  try {
    const doc = readDocument(file, 'config');
    if (doc.decoded.fatal.length) throw new ConfigDecodeError(doc.decoded.fatal.join('; '));
    if (doc.decoded.strict.length) {
      logger.info('Using lenient decoding as strict decoding failed', { err: `strict decoding error: ${doc.decoded.strict.join(', ')}` });
    }
    const o = doc.decoded.object;
    sources.record(patchedPaths(o), file);
    // Upstream defaults with the process's gates (already holding --feature-gates) and the file's over them.
    const fileGates = isObject(o['featureGates']) ? (o['featureGates'] as Record<string, boolean>) : {};
    setDefaults(o, FeatureGates.evaluate({ ...gates, ...fileGates }).gates);
    defaultEvictionHard(o);
    resolveRelativePaths(o, path.dirname(file));
    return o;
  } catch (e) {
    if (e instanceof ConfigDecodeError) throw fail(`failed to decode: ${e.message}`);
    if (e instanceof ConfigFileError) throw fail(e.message);
    throw e;
  }
}

function applyDropIns(base: JsonObject, dir: string, cwd: string, gates: Record<string, boolean>, logger: Logger, sources: ConfigSources): JsonObject {
  let merged: Json = versionedConfiguration(base);
  try {
    for (const dropIn of readDropIns(dir, cwd, logger)) {
      merged = mergePatch(merged, dropIn.patch);
      sources.record(patchedPaths(dropIn.patch).filter((p) => p !== 'apiVersion' && p !== 'kind'), dropIn.file);
    }
  } catch (e) {
    if (e instanceof ConfigFileError) throw new ConfigurationError(`failed to merge nodeagent configs: ${e.message}`);
    throw e;
  }
  const decoded = decodeConfiguration(merged);
  if (decoded.fatal.length) throw new ConfigurationError(`failed to merge nodeagent configs: failed to unmarshal merged JSON into nodeagent configuration: ${decoded.fatal.join('; ')}`);
  const o = decoded.object;
  const fileGates = isObject(o['featureGates']) ? (o['featureGates'] as Record<string, boolean>) : {};
  setDefaults(o, FeatureGates.evaluate({ ...gates, ...fileGates }).gates);
  return o;
}

/** kubeletConfigFlagPrecedence: each flag the operator gave sets its field again, over file and drop-ins. */
function applyFlags(o: JsonObject, flags: FlagSet, sources: ConfigSources): void {
  for (const f of NODEAGENT_FLAGS) {
    if (!f.field || !flags.has(f.spec.name) || !flags.isSetByOperator(f.spec.name)) continue;
    const parsed = flags.get(f.spec.name);
    let value = (f.toField ? f.toField(parsed) : parsed) as Json;
    // Gates the file set and the command line did not name are kept, as upstream.
    if (f.field === 'featureGates') value = { ...(isObject(o['featureGates']) ? o['featureGates'] : {}), ...(value as JsonObject) };
    setPath(o, f.field, value);
    sources.record([f.field], `--${f.spec.name}`);
  }
}

/**
 * `(field set in FILE)` for the fields of a problem that a drop-in set last (upstream merges first
 * and cannot say which); the main file is named at the end of the message, a flag by the message.
 */
function describeSources(problem: Problem, sources: ConfigSources, mainFile: string | undefined): string {
  const parts: string[] = [];
  for (const field of problem.fields) {
    const source = sources.of(field);
    if (!source || source.startsWith('--') || source === mainFile) continue;
    const text = `${field} set in ${source}`;
    if (!parts.includes(text)) parts.push(text);
  }
  return parts.length ? ` (${parts.join(', ')})` : '';
}

export { aggregate };

export function buildNodeAgentConfiguration(input: BuildInput): BuiltConfiguration {
  const { flags, cwd, logger } = input;
  const sources = new ConfigSources();
  const gatesFromFlags = flagGates(flags);
  const initial = FeatureGates.evaluate(gatesFromFlags);
  if (initial.errors.length) throw new ConfigurationError(`failed to set feature gates from initial flags-based config: ${aggregate(initial.errors)}`);

  const configFile = flags.get<string>('config');
  const configDir = flags.get<string>('config-dir');
  let o = configFile ? loadMainFile(configFile, cwd, gatesFromFlags, logger, sources) : legacyDefaults();
  if (configDir) o = applyDropIns(o, configDir, cwd, gatesFromFlags, logger, sources);
  applyFlags(o, flags, sources);

  const config = o as unknown as NodeAgentConfiguration;
  const evaluated = FeatureGates.evaluate(config.featureGates);
  if (evaluated.errors.length) {
    throw new ConfigurationError(`failed to set feature gates from initial flags-based config: ${aggregate(evaluated.errors)}`);
  }
  for (const w of evaluated.warnings) logger.warn(w);

  const problems = validateConfiguration(config, evaluated.gates);
  if (problems.length) {
    const mainFile = configFile ? path.resolve(cwd, configFile) : undefined;
    const where = mainFile ?? (configDir ? path.resolve(cwd, configDir) : 'command line');
    throw new ConfigurationError(`failed to validate nodeagent configuration, error: ${aggregate(problems.map((p) => p.message + describeSources(p, sources, mainFile)))}, path: ${where}`);
  }
  for (const w of configurationWarnings(config)) logger.warn(w.msg, w.fields);
  return { config, gates: evaluated.gates, sources, ...(configFile ? { configFile: path.resolve(cwd, configFile) } : {}) };
}
