// component-base's running_managed_controllers (ALPHA in 1.32): 1 while a controller of this
// manager runs, 0 once it has stopped (set, not counted, so a controller that stops twice is
// still 0).
import type { MetricsRegistry } from './registry.js';

export interface ControllerManagerMetrics {
  controllerStarted(name: string): void;
  controllerStopped(name: string): void;
}

const families = new WeakMap<MetricsRegistry, ReturnType<MetricsRegistry['gauge']>>();

/** The family, registered once per registry (upstream registers it at init). */
export function registerControllerManagerMetrics(registry: MetricsRegistry): ReturnType<MetricsRegistry['gauge']> {
  let running = families.get(registry);
  if (!running) {
    running = registry.gauge({ name: 'running_managed_controllers', help: 'Indicates where instances of a controller are currently running', labelNames: ['name', 'manager'] });
    families.set(registry, running);
  }
  return running;
}

export function controllerManagerMetrics(registry: MetricsRegistry, manager: string): ControllerManagerMetrics {
  const gauge = registerControllerManagerMetrics(registry);
  return {
    controllerStarted: (name) => gauge.labels(name, manager).set(1),
    controllerStopped: (name) => gauge.labels(name, manager).set(0),
  };
}
