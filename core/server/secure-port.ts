// --secure-port as k8s.io/apiserver's SecureServingOptions.Validate checks it: after parsing, as an
// options error (any int parses), in upstream's words. Go's precedence makes the first text cover
// every port above 65535, required or not.
import type { FlagSet } from '../flags/types.js';
import { located, locatedError } from '../located-problems.js';

export const SECURE_PORT_FLAG = 'secure-port';

/** Upstream's problem with `port`, or undefined; `required`: 0 cannot turn serving off (kube-apiserver). */
export function securePortProblem(port: number, required: boolean): string | undefined {
  if ((required && port < 1) || port > 65535) return `--secure-port ${port} must be between 1 and 65535, inclusive. It cannot be turned off with 0`;
  if (port < 0) return `--secure-port ${port} must be between 0 and 65535, inclusive. 0 for turning off secure port`;
  return undefined;
}

/** Stops start-up on a bad --secure-port, naming the config file when the value came from one. */
export function checkSecurePort(flags: FlagSet, required: boolean): void {
  const problem = securePortProblem(flags.get<number>(SECURE_PORT_FLAG), required);
  if (problem !== undefined) throw locatedError([located(flags, [problem], [SECURE_PORT_FLAG])])!;
}
