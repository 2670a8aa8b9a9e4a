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

/** Fatal start-up problem: the message is printed as is and the process exits with `exitCode`. */
export class StartupError extends Error {
  constructor(message: string, readonly exitCode = 1) {
    super(message);
    this.name = 'StartupError';
  }
}
