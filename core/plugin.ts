// A plugin is `{ name, apply(host, options) }`, webpack-style: apply only taps hooks.
import type { HookName } from './hooks.js';
import type { Host } from './host.js';

export interface Plugin<O = unknown> {
  readonly name: string;
  /**
   * The hooks this plugin calls (owns), beyond those the host calls (HOST_CALLED): a command
   * calls just the hooks its plugins name here, and a tap on another hook is warned about.
   */
  readonly calls?: readonly HookName[];
  apply(host: Host, options: O | undefined): void;
}

/**
 * Marks every StartupError, whichever copy of plat made it: a plugin package that installs its own
 * plat throws that copy's class, which `instanceof` against the host's does not recognise (as
 * StatusError's brand in core/api/errors.ts).
 */
const STARTUP_ERROR = Symbol.for('plat.StartupError');

/** Fatal start-up problem: the message is printed as is and the process exits with `exitCode`. */
export class StartupError extends Error {
  constructor(message: string, readonly exitCode = 1) {
    super(message);
    this.name = 'StartupError';
    Object.defineProperty(this, STARTUP_ERROR, { value: true });
  }
}

/** A StartupError of this or of another copy of plat: use this, never `instanceof`. */
export const isStartupError = (e: unknown): e is StartupError =>
  typeof e === 'object' && e !== null && (e as { [STARTUP_ERROR]?: unknown })[STARTUP_ERROR] === true;
