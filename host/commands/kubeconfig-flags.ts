// Which kubeconfig a client command (plat csr, plat token create, plat auth can-i) uses, as kubectl
// finds its own (clientcmd's loading rules): --kubeconfig (or --platconfig), one file that must
// exist; else $PLATCONFIG, else $KUBECONFIG, each a list of files (':'-separated) merged as
// clientcmd merges them, missing files skipped; else ~/.kube/config when it exists; else
// .plat/admin.conf, the file `plat all` writes (plat's own fallback, for the quick start).
// --context, --cluster and --user override what the current context names, as kubectl's; so do
// --as, --as-uid and --as-group the user's impersonation, checked with the kubeconfig. One
// rule for every command, so a shell set up for kubectl works for all of them.
import { statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KubeconfigError, loadKubeconfigs, type WebhookConnection } from '../../core/client/kubeconfig.js';
import { FlagError, type Flags } from '../../core/flags/flag-set.js';
import { CommandError } from './command-error.js';
import { isNotExist } from '../../core/go-os-error.js';

export const DEFAULT_KUBECONFIG = '.plat/admin.conf';
const DEFAULT_TEXT = `$PLATCONFIG, else $KUBECONFIG, else ~/.kube/config, else ${DEFAULT_KUBECONFIG}`;

export function defineKubeconfigFlags(f: Flags, section: string): void {
  f.define({ name: 'kubeconfig', type: 'string', default: '', section, help: `Kubeconfig to use (default: ${DEFAULT_TEXT}).` });
  f.define({ name: 'platconfig', type: 'string', default: '', section, help: 'Same as --kubeconfig (the name the plat daemons use).' });
  f.define({ name: 'context', type: 'string', default: '', section, help: 'The kubeconfig context to use (default: its current-context).' });
  f.define({ name: 'cluster', type: 'string', default: '', section, help: 'The kubeconfig cluster to use (default: the context\'s).' });
  f.define({ name: 'user', type: 'string', default: '', section, help: 'The kubeconfig user to use (default: the context\'s).' });
  // kubectl's global impersonation flags, in its words (genericclioptions' ConfigFlags).
  f.define({ name: 'as', type: 'string', default: '', section, help: 'Username to impersonate for the operation. User could be a regular user or a service account in a namespace.' });
  f.define({ name: 'as-group', type: 'stringArray', default: [], section, help: 'Group to impersonate for the operation, this flag can be repeated to specify multiple groups.' });
  f.define({ name: 'as-uid', type: 'string', default: '', section, help: 'UID to impersonate for the operation.' });
}

/**
 * Whether clientcmd would skip `file` as missing: only os.IsNotExist (ENOENT). A file it cannot
 * read (EACCES, a path through a regular file) is kept, so loading it names the error as kubectl's
 * `error loading config file` does, instead of being passed over.
 */
function missing(file: string): boolean {
  try {
    statSync(file);
    return false;
  } catch (e) {
    return isNotExist(e);
  }
}

/** The files to merge, in order, and how error messages name them. */
export function kubeconfigFiles(f: Flags, env: NodeJS.ProcessEnv = process.env, home = os.homedir()): { files: string[]; label: string } {
  const flag = f.get<string>('kubeconfig');
  const alias = f.get<string>('platconfig');
  if (flag && alias && flag !== alias) throw new FlagError('--kubeconfig and --platconfig name different files; give one');
  if (flag || alias) return { files: [flag || alias], label: flag || alias };
  for (const name of ['PLATCONFIG', 'KUBECONFIG']) {
    const list = (env[name] ?? '').split(path.delimiter).filter(Boolean);
    if (list.length === 0) continue;
    const existing = list.filter((p) => !missing(p));
    if (existing.length === 0) throw new CommandError(`$${name} (${list.join(path.delimiter)}): none of its files exists`);
    return { files: existing, label: existing.join(path.delimiter) };
  }
  const recommended = path.join(home, '.kube', 'config');
  if (!missing(recommended)) return { files: [recommended], label: recommended };
  return { files: [DEFAULT_KUBECONFIG], label: DEFAULT_KUBECONFIG };
}

/** The server and credentials; problems name the file(s), which the user may not have chosen. */
export function kubeconfigConnection(f: Flags, env: NodeJS.ProcessEnv = process.env): WebhookConnection {
  const { files, label } = kubeconfigFiles(f, env);
  try {
    return loadKubeconfigs(files, {
      context: f.get<string>('context'), cluster: f.get<string>('cluster'), user: f.get<string>('user'),
      impersonate: { user: f.get<string>('as'), uid: f.get<string>('as-uid'), groups: f.get<string[]>('as-group') },
    });
  } catch (e) {
    if (e instanceof KubeconfigError) throw new CommandError(`kubeconfig ${label}: ${e.message}`);
    throw e;
  }
}
