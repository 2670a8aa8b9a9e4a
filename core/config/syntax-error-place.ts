// Where a syntax error in a user's JS file is. Node 20 puts the place first in the stack for
// CommonJS (`/x/plugin.cjs:3` over the line and a caret) but gives none for an import()ed ES
// module, so a plugin author would read only "Unexpected token ';'". Then `node --check` on the
// file, run only on this failure path, names it. A file that checks clean has its error in
// something it imports, which the check cannot see: the message says so.
import { spawnSync } from 'node:child_process';

const CHECK_TIMEOUT_MS = 10_000;

/** ` (file:line:column)` for a SyntaxError from loading `file`, or '' when unknown. */
export function syntaxErrorPlace(err: unknown, file: string): string {
  if (!(err instanceof SyntaxError) || !/\.[cm]?js$/.test(file)) return '';
  const place = placeIn(err.stack ?? '') ?? checked(file);
  return place ? ` (${place})` : '';
}

function checked(file: string): string | undefined {
  const r = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8', timeout: CHECK_TIMEOUT_MS });
  if (r.status === 0) return 'in a module it imports';
  return r.status === 1 ? placeIn(r.stderr ?? '') : undefined;
}

/** Node's print of a syntax error: `<file>:<line>` first, then the source line and a caret under the column (none at the end of input). */
function placeIn(text: string): string | undefined {
  const m = /^(\S.*):(\d+)\n(?:.*\n([ \t]*)\^)?/.exec(text);
  if (!m) return undefined;
  return m[3] === undefined ? `${m[1]}:${m[2]}` : `${m[1]}:${m[2]}:${m[3].length + 1}`;
}
