// Which kubeconfig a client command (plat csr, plat token create, plat auth can-i) uses:
// --kubeconfig (or --platconfig), else $PLATCONFIG, else $KUBECONFIG (its first existing entry:
// plat does not merge kubeconfig lists), else .plat/admin.conf, the file `plat all` writes. One
// rule for every command, so a shell set up for kubectl works for all of them.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { FlagError, type Flags } from '../../core/flags/flag-set.js';

export const DEFAULT_KUBECONFIG = '.plat/admin.conf';

export function defineKubeconfigFlags(f: Flags, section: string): void {
  f.define({ name: 'kubeconfig', type: 'string', default: '', section, help: `Kubeconfig to use (default: $PLATCONFIG, else $KUBECONFIG, else ${DEFAULT_KUBECONFIG}).` });
  f.define({ name: 'platconfig', type: 'string', default: '', section, help: 'Same as --kubeconfig (the name the plat daemons use).' });
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
