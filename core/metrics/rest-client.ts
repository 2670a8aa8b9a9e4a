// client-go's REST client metrics as component-base registers them (ALPHA in 1.32): every
// attempt counted by status code (`<error>` when no answer came), method and host
// (rest_client_requests_total), and each request's latency, rate-limiter wait included, by verb
// and host (rest_client_request_duration_seconds). host is the server URL's host:port.
import type { MetricsRegistry } from './registry.js';

export interface RestClientMetrics {
  /** updateURLMetrics: one attempt's outcome. */
  result(code: number | '<error>', method: string, host: string): void;
  /** RequestLatency: one request, from before the rate limiter to its answer read. */
  latency(verb: string, host: string, seconds: number): void;
}

const made = new WeakMap<MetricsRegistry, RestClientMetrics>();

export function restClientMetrics(registry: MetricsRegistry): RestClientMetrics {
  let m = made.get(registry);
  if (m) return m;
  const latency = registry.histogram({
    name: 'rest_client_request_duration_seconds', help: 'Request latency in seconds. Broken down by verb, and host.',
    labelNames: ['verb', 'host'], buckets: [0.005, 0.025, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0, 60.0],
  });
  const results = registry.counter({
    name: 'rest_client_requests_total', help: 'Number of HTTP requests, partitioned by status code, method, and host.',
    labelNames: ['code', 'method', 'host'],
  });
  m = {
    result: (code, method, host) => results.labels(String(code), method, host).inc(),
    latency: (verb, host, seconds) => latency.labels(verb, host).observe(seconds),
  };
  made.set(registry, m);
  return m;
}
