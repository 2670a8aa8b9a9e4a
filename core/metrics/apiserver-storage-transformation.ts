// storage/value/metrics.go (ALPHA): every value an encryption provider list reads or writes, by
// direction and by the prefix of the transformer that did it (a provider's `k8s:enc:aescbc:v1:`, a
// key's `key1:`, `identity` for an unencrypted read, `` for an unencrypted write, `unknown` when
// no prefix matched), with status OK or upstream's code for an error outside gRPC. Only successes
// are timed, as RecordTransformation.
import type { RecordTransformation } from '../storage/encryption/transformer.js';
import type { CounterChild, HistogramChild, MetricsRegistry, MetricVec } from './registry.js';

/** ExponentialBuckets(5e-6, 2, 25): 5 µs to about 84 s. */
const BUCKETS = Array.from({ length: 25 }, (_, i) => 5e-6 * 2 ** i);
/** getErrorCode of an error that is no gRPC status (plat has no KMS plugin). */
const NON_GRPC = 'unknown-non-grpc';

export class TransformationMetrics {
  readonly #total: MetricVec<CounterChild>;
  readonly #latency: MetricVec<HistogramChild>;

  constructor(registry: MetricsRegistry) {
    this.#latency = registry.histogram({
      name: 'apiserver_storage_transformation_duration_seconds', help: 'Latencies in seconds of value transformation operations.',
      labelNames: ['transformation_type', 'transformer_prefix'], buckets: BUCKETS,
    });
    this.#total = registry.counter({
      name: 'apiserver_storage_transformation_operations_total', help: 'Total number of transformations.',
      labelNames: ['transformation_type', 'transformer_prefix', 'status'],
    });
  }

  readonly record: RecordTransformation = (type, prefix, seconds, ok) => {
    this.#total.labels(type, prefix, ok ? 'OK' : NON_GRPC).inc();
    if (ok) this.#latency.labels(type, prefix).observe(seconds);
  };
}
