// Where the `plat csr` commands find the API server: --kubeconfig (or --platconfig), else
// $PLATCONFIG, else $KUBECONFIG (its first existing entry: plat does not merge kubeconfig lists),
// else .plat/admin.conf, the file `plat all` writes. Also the flags every subcommand shares and the
// kubectl-style rendering of a server's refusal.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { isApiError, RestClient } from '../../core/client/rest-client.js';
import { FlagError, Flags } from '../../core/flags/flag-set.js';
import { connect } from './api-request.js';
import { CommandError } from './ca.js';

export const DEFAULT_KUBECONFIG = '.plat/admin.conf';

/** Flags of one subcommand, with the connection flags every subcommand takes. */
export function csrFlags(section: string): Flags {
  const f = new Flags();
  f.define({ name: 'kubeconfig', type: 'string', default: '', section, help: `Kubeconfig to use (default: $PLATCONFIG, else $KUBECONFIG, else ${DEFAULT_KUBECONFIG}).` });
  f.define({ name: 'platconfig', type: 'string', default: '', section, help: 'Same as --kubeconfig (the name the other plat commands use).' });
  return f;
}

export function kubeconfigPath(f: Flags, env: NodeJS.ProcessEnv = process.env): string {
  const flag = f.get<string>('kubeconfig');
  const alias = f.get<string>('platconfig');
  if (flag && alias && flag !== alias) throw new FlagError('--kubeconfig and --platconfig name different files; give one');
  if (flag || alias) return flag || alias;
  if (env['PLATCONFIG']) return env['PLATCONFIG'];
  const list = (env['KUBECONFIG'] ?? '').split(path.delimiter).filter(Boolean);
  if (list.length) return list.find((p) => existsSync(p)) ?? list[0]!;
  return DEFAULT_KUBECONFIG;
}

export function openClient(f: Flags): RestClient {
  const file = kubeconfigPath(f);
  try {
    return new RestClient(connect(file), { userAgent: 'plat-csr' });
  } catch (e) {
    if (e instanceof CommandError) throw new CommandError(`kubeconfig ${file}: ${e.message}`);
    throw e;
  }
}

/** A server's Status as kubectl prints it: `Error from server (NotFound): ...`. */
export function describeError(e: unknown): string {
  if (isApiError(e)) return e.reason ? `Error from server (${e.reason}): ${e.message}` : `Error from server: ${e.message}`;
  return (e as Error).message;
}
