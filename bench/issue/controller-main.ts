// The signing controller as a process of its own, for a `plat all` that does not run controllers
// (or to compare with one that does): the csrsigning plugins booted as the controller manager
// boots them, the `csrsigning` controller given an API client from a kubeconfig with the asked
// client-side limit, shared informers, then run until SIGTERM. Prints "controller ready" once
// its informers have synced.
//   node dist/bench/issue/controller-main.js --kubeconfig FILE --qps Q --burst B -- <csrsigning flags>
import { boot } from '../../core/boot.js';
import { loadKubeconfig } from '../../core/client/kubeconfig.js';
import { RestClient } from '../../core/client/rest-client.js';
import { SharedInformers } from '../../core/controller/shared-informers.js';
import { MapRegistry, type ControllerContext, type Runnable } from '../../core/lifecycle.js';
import { createLogger } from '../../core/log.js';
import { ClusterSigner, CsrSigningController } from '../../plugins/csrsigning/index.js';

function option(args: string[], name: string): string {
  const i = args.indexOf(`--${name}`);
  const v = i >= 0 ? args[i + 1] : undefined;
  if (v === undefined) throw new Error(`--${name} is required`);
  return v;
}

const argv = process.argv.slice(2);
const dash = argv.indexOf('--');
const own = dash >= 0 ? argv.slice(0, dash) : argv;
const signingArgs = dash >= 0 ? argv.slice(dash + 1) : [];

const logger = createLogger({ name: 'bench-controller' });
const { host, flags } = await boot({
  profile: { role: 'controller-manager', description: 'the csrsigning controller for plat bench issue', plugins: [CsrSigningController, ClusterSigner] },
  argv: signingArgs, cwd: process.cwd(), logger, version: 'bench',
});
const registry = new MapRegistry<(ctx: ControllerContext) => Runnable>();
host.hooks.controllers.call(registry);
const factory = registry.get('csrsigning');
if (!factory) throw new Error('the csrsigning controller is not registered');

const client = new RestClient(loadKubeconfig(option(own, 'kubeconfig')), { qps: Number(option(own, 'qps')), burst: Number(option(own, 'burst')), userAgent: 'plat-bench-controller' });
const informers = new SharedInformers(client, { logger });
const controller = factory({ client, informers, logger: logger.child('csrsigning'), flags, hooks: host.hooks });
const stop = new AbortController();
informers.start(stop.signal);
const running = controller.run(stop.signal);
await informers.waitForSync(stop.signal);
process.stdout.write('controller ready\n');

const shutdown = async () => {
  stop.abort();
  await running;
  await informers.stopped();
  await host.hooks.shutdown.promise();
  client.close();
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown());
process.once('SIGINT', () => void shutdown());
