// A problem with the config file or a plugin it names. The message already says which file, where
// in it (a JSON pointer or a line) and what is wrong; the host prints it as is and exits with 1.
export class ConfigError extends Error {
  readonly exitCode = 1;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ConfigError';
  }
}
