// Audit tests: a policy file, `plat all` in process with the log backend writing to a file, and
// the log read back as events (bounded waits: a ResponseComplete is written once the answer ended).
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import type { Plugin } from '../../core/plugin-api.js';
import { waitUntil } from '../helpers/watch-stream.js';

export const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';

export function writePolicy(dir: string, yaml: string, name = 'policy.yaml'): string {
  const file = path.join(dir, name);
  writeFileSync(file, yaml);
  return file;
}

export interface AuditedPlat { plat: RunningPlat; log: string; dir: string }

export async function startAudited(policyYaml: string, args: string[] = [], plugins: readonly Plugin[] = []): Promise<AuditedPlat> {
  const dir = tempDir('plat-audit-');
  const log = path.join(dir, 'logs', 'audit.log');
  const policy = writePolicy(dir, policyYaml);
  const plat = await startInProcess({ args: ['--controllers=', '--audit-policy-file', policy, '--audit-log-path', log, ...args], plugins });
  return { plat, log, dir };
}

export function readEvents(log: string): any[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
}

/** The events of one request, once its ResponseComplete (or `last` stage) is in the log. */
export async function eventsOf(log: string, auditID: string, last = 'ResponseComplete'): Promise<any[]> {
  return waitUntil(() => {
    const evs = readEvents(log).filter((e) => e.auditID === auditID);
    return evs.some((e) => e.stage === last) ? evs : undefined;
  }, `the ${last} event of ${auditID}`);
}
