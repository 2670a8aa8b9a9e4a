// Shared by the node subsystem's tests: a clock the test moves, a host network and machine the test
// describes, a node identity's API client (a client certificate from the plat's own CA), and the
// flags spec 03 gives the node agent for what the subsystem reads.
import { createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { RestClient } from '../../../core/client/rest-client.js';
import { Flags } from '../../../core/flags/flag-set.js';
import type { Clock } from '../../../plugins/nodeagent-node/clock.js';
import type { HostNetwork } from '../../../plugins/nodeagent-node/host-network.js';
import type { MachineInfo } from '../../../plugins/nodeagent-node/machine.js';
import { makeClientCert } from '../../helpers/certs.js';
import type { RunningPlat } from '../../helpers/plat.js';

interface Sleeper { at: number; resolve: () => void }

/** Time that moves only when the test says so; sleeps wake when their time comes. */
export class ManualClock implements Clock {
  #now: number;
  readonly #sleepers = new Set<Sleeper>();
  constructor(start = Date.parse('2026-03-01T10:00:00Z')) { this.#now = start; }
  now(): number { return this.#now; }
  sleep(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal.aborted) { resolve(); return; }
      const s: Sleeper = { at: this.#now + ms, resolve: () => { this.#sleepers.delete(s); signal.removeEventListener('abort', s.resolve); resolve(); } };
      this.#sleepers.add(s);
      signal.addEventListener('abort', s.resolve, { once: true });
    });
  }
  get sleeping(): number { return this.#sleepers.size; }
  /** The earliest wake-up, if anyone sleeps. */
  get nextWake(): number | undefined { return [...this.#sleepers].reduce<number | undefined>((m, s) => (m === undefined || s.at < m ? s.at : m), undefined); }
  /** Moves time forward by `ms`, waking every sleeper that is due. */
  advance(ms: number): void {
    this.#now += ms;
    for (const s of [...this.#sleepers]) if (s.at <= this.#now) s.resolve();
  }
  /** Moves time to the earliest wake-up. */
  advanceToNext(): void {
    const next = this.nextWake;
    if (next !== undefined) this.advance(Math.max(0, next - this.#now));
  }
}

const tick = () => new Promise((r) => setTimeout(r, 5));

/** Waits in real time (bounded) until `n` sleepers wait on the clock: the subsystem has settled. */
export async function settled(clock: ManualClock, n: number, what = `${n} sleepers`, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (clock.sleeping < n) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what} (have ${clock.sleeping})`);
    await tick();
  }
}

/**
 * Moves the clock from wake-up to wake-up until `done` holds: each step waits for the subsystem to
 * sleep again (its loops always sleep between rounds), so the steps follow its real progress.
 * Bounded in steps and in real time.
 */
export async function advanceUntil(clock: ManualClock, done: () => Promise<boolean> | boolean, what: string, sleepers = 1, maxSteps = 200): Promise<number> {
  for (let step = 0; step < maxSteps; step++) {
    await settled(clock, sleepers, what);
    if (await done()) return step;
    clock.advanceToNext();
  }
  throw new Error(`${what}: not done after ${maxSteps} clock steps`);
}

/** Polls (bounded, real time) until `check` returns a value. */
export async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await tick();
  }
}

/** A host with eth0 (192.0.2.20, fd00::20, a link-local) and loopback, default routes through eth0. */
export function fakeNetwork(over: Partial<{ interfaces: ReturnType<HostNetwork['interfaces']>; routes: ReturnType<HostNetwork['defaultRoutes']> extends Promise<infer R> ? R : never; lookup: Record<string, string[]> }> = {}): HostNetwork & { lookups: string[] } {
  const lookups: string[] = [];
  return {
    lookups,
    interfaces: () => over.interfaces ?? {
      lo: [{ address: '127.0.0.1', family: 'IPv4', internal: true }, { address: '::1', family: 'IPv6', internal: true }],
      eth0: [{ address: 'fe80::1', family: 'IPv6', internal: false }, { address: '192.0.2.20', family: 'IPv4', internal: false }, { address: 'fd00::20', family: 'IPv6', internal: false }],
    },
    defaultRoutes: async () => ('routes' in over ? over.routes : [{ interface: 'eth0', family: 4 }, { interface: 'eth0', family: 6 }]),
    lookup: async (name) => { lookups.push(name); return over.lookup?.[name] ?? []; },
  };
}

export function fakeMachine(over: Partial<MachineInfo> = {}): MachineInfo {
  return {
    numCores: 4, memoryCapacity: 8n * 1024n ** 3n, machineID: 'machine-1', systemUUID: 'uuid-1', bootID: 'boot-1',
    kernelVersion: '6.1.0-test', osImage: 'Debian GNU/Linux 12 (bookworm)', rootfsCapacity: 100n * 1024n ** 3n,
    operatingSystem: 'linux', architecture: 'amd64', ...over,
  };
}

/** The flags of spec 03 the node subsystem reads, as the role will define them. */
export function nodeFlags(args: string[] = []): Flags {
  const f = new Flags();
  f.define({ name: 'node-ip', type: 'string', help: 'Node IP or comma-separated dual-stack IPs.', section: 'Identity, files and registration' });
  f.define({ name: 'node-labels', type: 'map', help: 'Labels added at registration.', section: 'Identity, files and registration' });
  f.define({ name: 'cloud-provider', type: 'string', help: 'Empty for none, external for an external provider.', section: 'Identity, files and registration' });
  f.define({ name: 'root-dir', type: 'string', default: '/var/lib/nodeagent', help: 'Directory for node agent files.', section: 'Identity, files and registration' });
  f.parse(args);
  return f;
}

/** An API client authenticated as `system:node:<name>` (group system:nodes) with a certificate from the plat's CA. */
export function nodeClient(plat: RunningPlat, name: string): RestClient {
  const pki = path.join(plat.dataDir, 'pki');
  const caPem = readFileSync(path.join(pki, 'ca.crt'), 'utf8');
  const caKey = readFileSync(path.join(pki, 'ca.key'), 'utf8');
  const cred = makeClientCert({ certificatePem: caPem, privateKeyPem: caKey, keyObject: createPrivateKey(caKey), der: new Uint8Array() }, `system:node:${name}`, ['system:nodes']);
  return new RestClient({ server: new URL(plat.url), ca: caPem, clientCert: cred.certificatePem, clientKey: cred.privateKeyPem });
}
