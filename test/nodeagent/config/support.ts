// Builds a node-agent configuration the way `plat nodeagent` does (its flags, a --config file and
// --config-dir drop-ins written to a temp dir), returning the configuration or the start-up error,
// and what was logged.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { GO_YAML } from '../../../core/api/go-yaml.js';
import { Flags } from '../../../core/flags/flag-set.js';
import { createLogger } from '../../../core/log.js';
import type { NodeAgentConfiguration } from '../../../core/nodeagent/configuration.js';
import { buildNodeAgentConfiguration, ConfigurationError, NODEAGENT_FLAGS } from '../../../plugins/nodeagent/index.js';
import { tempDir } from '../../helpers/plat.js';

export const HEADER = { apiVersion: 'nodeagent.config.platform/v1beta1', kind: 'NodeAgentConfiguration' };

export function nodeAgentFlags(): Flags {
  const f = new Flags();
  for (const nf of NODEAGENT_FLAGS) if (!nf.refuse) f.define(nf.spec);
  return f;
}

export interface BuildCase {
  /** The --config file: an object (written as YAML, the header added unless `raw`) or text. */
  file?: Record<string, unknown> | string;
  raw?: boolean;
  /** Drop-ins by relative path under --config-dir (objects get the header). */
  dropIns?: Record<string, Record<string, unknown> | string>;
  args?: string[];
  /** Flag values as plat's config file would set them. */
  platConfigFlags?: Record<string, unknown>;
  dir?: string;
}

export interface BuildResult { config?: NodeAgentConfiguration; error?: string; logs: string; dir: string; file?: string; configDir?: string }

// Quoted as the reader reads (YAML 1.1): a string 'yes' must reach the decoder as a string.
const text = (v: Record<string, unknown> | string, raw = false): string => (typeof v === 'string' ? v : stringify(raw ? v : { ...HEADER, ...v }, GO_YAML));

export function build(c: BuildCase = {}): BuildResult {
  const dir = c.dir ?? tempDir('nodeagent-config-');
  const args = [...(c.args ?? [])];
  let file: string | undefined;
  let configDir: string | undefined;
  if (c.file !== undefined) {
    file = path.join(dir, 'config.yaml');
    writeFileSync(file, text(c.file, c.raw));
    args.unshift(`--config=${file}`);
  }
  if (c.dropIns !== undefined) {
    configDir = path.join(dir, 'conf.d');
    mkdirSync(configDir, { recursive: true });
    for (const [name, body] of Object.entries(c.dropIns)) {
      mkdirSync(path.dirname(path.join(configDir, name)), { recursive: true });
      writeFileSync(path.join(configDir, name), text(body));
    }
    args.unshift(`--config-dir=${configDir}`);
  }
  const flags = nodeAgentFlags();
  if (c.platConfigFlags) flags.setFromConfig(c.platConfigFlags, 'plat.config.json');
  flags.parse(args);
  let logs = '';
  const logger = createLogger({ write: (line) => { logs += `${line}\n`; }, verbosity: 10 });
  const base = { logs: '', dir, ...(file ? { file } : {}), ...(configDir ? { configDir } : {}) };
  try {
    const built = buildNodeAgentConfiguration({ flags, cwd: dir, logger });
    return { ...base, config: built.config, logs };
  } catch (e) {
    if (e instanceof ConfigurationError) return { ...base, error: e.message, logs };
    throw e;
  }
}

/** The configuration, failing the test with the error when there is one. */
export function ok(c: BuildCase = {}): NodeAgentConfiguration {
  const r = build(c);
  if (r.error !== undefined) throw new Error(`unexpected configuration error: ${r.error}`);
  return r.config!;
}
