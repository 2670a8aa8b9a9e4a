// A role's start-up refusal in the test's process: the role's profile booted as `plat ROLE` boots
// it (host/run-role.ts), and what that process prints and exits with when boot refuses: its log
// lines, then `plat ROLE: MESSAGE` and the StartupError's exit code. Spawning plat costs a second
// of CPU a row (loading the role's modules); a table of option refusals shares this process's.
// For refusals of the options only (boot's configure phase or earlier), when nothing has started
// yet; keep one spawned `plat` per file for what only the process shows (exit code, stderr).
// Boot looks for config files in `cwd`, but a part may resolve a relative path against the
// process's working directory (the node agent's --config does): give such paths absolute.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { boot } from '../../core/boot.js';
import { createLogger } from '../../core/log.js';
import { isStartupError } from '../../core/plugin.js';
import { roleCalls, roles } from '../../host/role-registry.js';
import { repoRoot } from './plat.js';
import type { Finished } from './run-plat.js';

const version = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;

/** `configFile` is what the process takes from $PLAT_CONFIG. */
export async function bootRefusal(role: string, argv: readonly string[], opts: { cwd?: string; configFile?: string } = {}): Promise<Finished> {
  const lines: string[] = [];
  const profile = await roles[role]!.load();
  try {
    const { host } = await boot({
      profile, argv, cwd: opts.cwd ?? repoRoot, logger: createLogger({ write: (l) => lines.push(`${l}\n`) }), version, commands: roleCalls,
      ...(opts.configFile ? { configFile: opts.configFile } : {}),
    });
    await host.hooks.shutdown.promise();
  } catch (e) {
    if (!isStartupError(e)) throw e;
    return { code: e.exitCode, stdout: '', stderr: `${lines.join('')}plat ${role}: ${e.message}\n` };
  }
  throw new Error(`plat ${role} ${argv.join(' ')} started`);
}
