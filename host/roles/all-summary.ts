// What `plat all` prints once it serves (where, its data, the admin kubeconfig), apart from
// roles/all.ts so that the command, which prints it for any role, does not load the API server.
import path from 'node:path';
import type { Host } from '../../core/host.js';

export interface AllInOneSummary { url: string; dataDir: string; kubeconfig: string }
const summaries = new WeakMap<Host, AllInOneSummary>();

export function recordAllInOne(host: Host, summary: AllInOneSummary): void {
  summaries.set(host, summary);
}

/** How to reach a running `plat all`, printed by the command once it serves. */
export function describeAllInOne(host: Host): string | undefined {
  const s = summaries.get(host);
  if (!s) return undefined;
  const shown = (p: string) => { const r = path.relative(process.cwd(), p); return r && !r.startsWith('..') ? r : p; };
  return [
    '',
    `plat is serving at ${s.url} (data in ${shown(s.dataDir)})`,
    `admin kubeconfig: ${shown(s.kubeconfig)} (user plat-admin in group system:masters)`,
    '',
    'Try:',
    `  export KUBECONFIG=${shown(s.kubeconfig)}`,
    '  kubectl api-resources',
    '  kubectl get certificatesigningrequests.v1.certificates.platform',
    '',
  ].join('\n');
}
