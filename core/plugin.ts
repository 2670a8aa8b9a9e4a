// A plugin is `{ name, apply(host, options) }`, webpack-style: apply only taps hooks.
import type { Host } from './host.js';

export interface Plugin<O = unknown> {
  readonly name: string;
  apply(host: Host, options: O | undefined): void;
}

/** Fatal start-up problem: the message is printed as is and the process exits with `exitCode`. */
export class StartupError extends Error {
  constructor(message: string, readonly exitCode = 1) {
    super(message);
    this.name = 'StartupError';
  }
}
