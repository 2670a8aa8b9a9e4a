// A command's failure with its exit code, in a module of its own: every command needs it, and
// taking it from ca.ts made `plat csr list` load the crypto core it never uses.
export class CommandError extends Error {
  constructor(message: string, readonly exitCode = 1) { super(message); }
}
