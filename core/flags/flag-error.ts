// A mistake in the command line or in the flags of the config file. The host prints the message
// as is and exits with 2, the exit code of pflag-based components for usage errors.
export class FlagError extends Error {
  readonly exitCode = 2;
  constructor(message: string) {
    super(message);
    this.name = 'FlagError';
  }
}
