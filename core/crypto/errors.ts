// One error class for everything the crypto core rejects. The message is the user-facing reason and,
// where Kubernetes has one, the exact Go error text (it ends up verbatim in 422 field errors).
export class CryptoError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CryptoError';
  }
}

/** Runs `f`, replacing whatever it throws by a CryptoError with `message` (Go's fixed texts per step). */
export function step<T>(message: string, f: () => T): T {
  try {
    return f();
  } catch {
    throw new CryptoError(message);
  }
}
