// The automatic reload families of 1.32's config controllers (ALPHA; authenticationconfigmetrics
// for --authentication-config): every reload that found new bytes, by status, labelled with the
// hash of the API server's identity as upstream labels them.
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import type { CounterChild, GaugeChild, MetricsRegistry, MetricVec } from './registry.js';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** base32.StdEncoding without padding. */
function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/**
 * genericapiserver.NewConfig's identity: `apiserver-` and the lower-cased base32 of the first 16
 * bytes of SHA-256 over the host name and "kube-apiserver", each with a 2-byte length.
 */
export function apiserverIdentity(host = hostname()): string {
  const field = (s: string) => {
    const b = Buffer.from(s);
    const len = Buffer.alloc(2);
    len.writeUInt16BE(b.length);
    return [len, b];
  };
  const sum = createHash('sha256').update(Buffer.concat([...field(host), ...field('kube-apiserver')])).digest();
  return `apiserver-${base32(sum.subarray(0, 16)).toLowerCase()}`;
}

/** The metrics' getHash: `sha256:<hex>`, empty for an empty identity. */
export const apiserverIdHash = (id: string): string => (id ? `sha256:${createHash('sha256').update(id).digest('hex')}` : '');

export class ConfigReloadMetrics {
  readonly #total: MetricVec<CounterChild>;
  readonly #last: MetricVec<GaugeChild>;

  /** `subsystem`: `authentication_config_controller`; `what`: the configuration named in the help. */
  constructor(registry: MetricsRegistry, subsystem: string, what: string, private readonly now: () => number = Date.now) {
    this.#total = registry.counter({
      name: `apiserver_${subsystem}_automatic_reloads_total`,
      help: `Total number of automatic reloads of ${what} configuration split by status and apiserver identity.`,
      labelNames: ['status', 'apiserver_id_hash'],
    });
    this.#last = registry.gauge({
      name: `apiserver_${subsystem}_automatic_reload_last_timestamp_seconds`,
      help: `Timestamp of the last automatic reload of ${what} configuration split by status and apiserver identity.`,
      labelNames: ['status', 'apiserver_id_hash'],
    });
  }

  record(status: 'success' | 'failure', apiserverId: string): void {
    const id = apiserverIdHash(apiserverId);
    this.#total.labels(status, id).inc();
    this.#last.labels(status, id).set(this.now() / 1000);
  }
}
