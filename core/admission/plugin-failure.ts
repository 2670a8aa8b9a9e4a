// What an admission plugin's throw means. A refusal is what the plugin meant to say: a Status
// goes out as it is, anything else becomes 403 with its text (core/registry/store.ts). A failure
// is not meant for the client: its text may quote data or the server's files, so the client gets
// 500 naming the plugin and the log gets the rest.
import { emptyThrow, thrownMessage } from '../thrown-message.js';

/**
 * What JavaScript throws for a bug (`undefined.x`, a missing function, runaway recursion, bad
 * JSON): a plugin that meets one has failed, not refused, as a Go plugin that panics.
 */
const BUGS = [TypeError, ReferenceError, RangeError, SyntaxError, EvalError, URIError];

/** POSIX error names (ENOENT, ECONNREFUSED) and Node's own codes (ERR_...). */
const SYSTEM_CODE = /^(E[A-Z0-9]+|ERR_[A-Z0-9_]+)$/;

/**
 * A system error (a file the plugin could not read, a connection refused): Node's carry `errno`,
 * `syscall` or such a `code`, and their message names the server's paths and addresses.
 */
function isSystemError(e: Error): boolean {
  const { errno, syscall, code } = e as { errno?: unknown; syscall?: unknown; code?: unknown };
  return typeof errno === 'number' || typeof syscall === 'string' || (typeof code === 'string' && SYSTEM_CODE.test(code));
}

/** A plugin's throw that is a failure (500, logged with the stack), not a refusal. */
export function isPluginFailure(e: unknown): e is Error {
  return e instanceof Error && (BUGS.some((b) => e instanceof b) || isSystemError(e));
}

/** The text of a refusal that is not a Status: the thrown value's, or for one that says nothing, who refused. */
export function refusalReason(e: unknown, plugin: string): string {
  const empty = emptyThrow(e);
  if (empty === undefined) return thrownMessage(e);
  return `admission plugin ${JSON.stringify(plugin)} refused without a reason (it threw ${empty}, not an Error)`;
}

