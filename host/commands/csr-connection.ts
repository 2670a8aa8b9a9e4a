// The `plat csr` commands' connection to the API server (the kubeconfig rule of
// kubeconfig-flags.ts), the flags every subcommand shares, and the kubectl-style rendering of a
// server's refusal.
import { isApiError, RestClient } from '../../core/client/rest-client.js';
import { FlagError, Flags } from '../../core/flags/flag-set.js';
import { resourceNameError } from '../../core/client/resource-name.js';
import { refusedMessage } from './api-request.js';
import { defineKubeconfigFlags, kubeconfigConnection } from './kubeconfig-flags.js';

/** Flags of one subcommand, with the connection flags every subcommand takes. */
export function csrFlags(section: string): Flags {
  const f = new Flags();
  defineKubeconfigFlags(f, section);
  return f;
}

/**
 * Refuses names no request could carry (client-go's Request.Name rule, in its words) before
 * anything is sent: a mistake on the command line, so exit 2.
 */
export function checkNames(names: readonly string[]): void {
  for (const name of names) {
    const invalid = resourceNameError(name);
    if (invalid !== undefined) throw new FlagError(invalid);
  }
}

export function openClient(f: Flags): RestClient {
  return new RestClient(kubeconfigConnection(f), { userAgent: 'plat-csr', onWarning: (text) => process.stderr.write(`Warning: ${text}\n`) });
}

/** A server's Status as kubectl prints it: `Error from server (NotFound): ...`. */
export function describeError(e: unknown): string {
  if (isApiError(e)) return e.reason ? `Error from server (${e.reason}): ${e.message}` : `Error from server: ${e.message}`;
  return refusedMessage(e) ?? (e as Error).message;
}
