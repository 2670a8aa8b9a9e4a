// The `plat csr` commands' connection to the API server (the kubeconfig rule of
// kubeconfig-flags.ts), the flags every subcommand shares, and the kubectl-style rendering of a
// server's refusal.
import { isApiError, RestClient, type ApiError } from '../../core/client/rest-client.js';
import { defaultUserAgent } from '../../core/client/user-agent.js';
import { goQuote } from '../../core/go-quote.js';
import { FlagError, Flags } from '../../core/flags/flag-set.js';
import { parseDuration } from '../../core/flags/duration.js';
import { resourceNameError } from '../../core/client/resource-name.js';
import { refusal, refusedMessage, type ApiResponse } from './api-request.js';
import { CommandError } from './command-error.js';
import { defineKubeconfigFlags, kubeconfigConnection } from './kubeconfig-flags.js';
import { VERSION } from '../version.js';

const TIMEOUT_HELP = 'The length of time to wait before giving up on a single server request. Non-zero values should contain a corresponding time unit (e.g. 1s, 2m, 3h). A value of zero means don\'t timeout requests.';

/**
 * kubectl's --request-timeout: a whole number of seconds, or a duration; 0, the default, waits as
 * long as the server takes (its own --request-timeout ends a request it cannot finish with 504).
 */
export function requestTimeoutMs(text: string): number | undefined {
  const ms = /^[+-]?\d+$/.test(text) ? Number(text) * 1000 : (() => { try { return parseDuration(text); } catch { return undefined; } })();
  return ms === undefined || ms < 0 || !Number.isFinite(ms) ? undefined : ms;
}

/** Flags of one subcommand, with the connection flags every subcommand takes. */
export function csrFlags(section: string): Flags {
  const f = new Flags();
  defineKubeconfigFlags(f, section);
  f.define({ name: 'request-timeout', type: 'string', default: '0', section, help: TIMEOUT_HELP,
    validate: (v) => (requestTimeoutMs(v as string) === undefined
      ? 'Invalid timeout value. Timeout must be a single integer in seconds, or an integer followed by a corresponding time unit (e.g. 1s | 2m | 3h)' : undefined) });
  // kubectl's global -n, which its commands on a cluster-scoped type take and ignore: a habit
  // (`kubectl get csr -n kube-system`) that should not fail here.
  f.define({ name: 'namespace', shorthand: 'n', type: 'string', default: '', section,
    help: 'Ignored, as kubectl ignores it: CertificateSigningRequests are cluster-scoped.' });
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

/**
 * client-go's DefaultKubernetesUserAgent for the `plat` binary, as kubectl sends its own: the API
 * server's logs and audit lines tell plat's CLI from kubectl and from the components by it.
 */
export const cliUserAgent = (): string => defaultUserAgent('plat', VERSION);

export function openClient(f: Flags): RestClient {
  return new RestClient(kubeconfigConnection(f), {
    userAgent: cliUserAgent(), timeoutMs: requestTimeoutMs(f.get<string>('request-timeout')) ?? 0,
    onWarning: (text) => process.stderr.write(`Warning: ${text}\n`),
  });
}

interface StatusDetails { kind?: string; name?: string; causes?: { field?: string; message?: string }[] }

/**
 * kubectl's words for an Invalid answer (cmdutil.CheckErr): `The <Kind> "<name>" is invalid: ` and
 * the causes as `field: message`, one on the line or, several, each on its own `* ` line.
 */
function invalidMessage(e: ApiError): string {
  const details = (e.body as { details?: StatusDetails } | undefined)?.details;
  if (!details) return `The request is invalid${e.message ? `: ${e.message}` : ''}`;
  const s = details.kind || details.name ? `The ${details.kind ?? ''} ${goQuote(details.name ?? '')} is invalid` : 'The request is invalid';
  const causes = [...new Set((details.causes ?? []).map((c) => `${c.field ?? ''}: ${c.message ?? ''}`))];
  if (causes.length === 0) return s;
  if (causes.length === 1) return `${s}: ${causes[0]}`;
  return `${s}: \n${causes.map((c) => `* ${c}`).join('\n')}`;
}

/**
 * An error as kubectl's StandardErrorMessage (and CheckErr, for Invalid) words it: `Error from
 * server (NotFound): ...`, `You must be logged in to the server (Unauthorized)`, `The
 * CertificateSigningRequest "x" is invalid: ...`, the refused-connection sentence, or `Unable to
 * connect to the server: ...` for any other failure to get an answer. kubectl starts its own
 * lines with `error: `; plat csr starts every line with `plat csr <sub>: ` instead (runCsr).
 */
export function describeError(e: unknown): string {
  if (isApiError(e)) {
    if (e.reason === 'Unauthorized') return `You must be logged in to the server (${e.message})`;
    if (e.reason === 'Invalid') return invalidMessage(e);
    return e.reason ? `Error from server (${e.reason}): ${e.message}` : `Error from server: ${e.message}`;
  }
  const refused = refusedMessage(e);
  if (refused !== undefined) return refused;
  // The REST client names the URL of a request that got no answer (Go's url.Error).
  if (typeof (e as { url?: unknown } | undefined)?.url === 'string') return `Unable to connect to the server: ${(e as Error).message}`;
  return (e as Error).message;
}

/** An answer that is not a success, in kubectl's words (`You must be logged in to the server (Unauthorized)`, `Error from server (Forbidden): ...`). */
export function refusedAnswer(res: ApiResponse, method: string, path: string): CommandError {
  return new CommandError(describeError(refusal(res, method, path)));
}
