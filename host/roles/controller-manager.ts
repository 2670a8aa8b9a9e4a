// `plat controller-manager`: before configure, apply the --config file (a
// PlatControllerManagerConfiguration) under the command line, so every plugin reads the merged
// flags.
import type { Flags } from '../../core/flags/flag-set.js';
import type { Host } from '../../core/host.js';
import { applyControllerManagerConfig } from '../../plugins/controller-manager/index.js';

export async function prepareControllerManager(_host: Host, flags: Flags): Promise<void> {
  const file = flags.get<string>('config');
  if (file) applyControllerManagerConfig(file, flags);
}
