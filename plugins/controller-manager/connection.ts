// Where `plat controller-manager` finds its API server, as clientcmd.BuildConfigFromFlags: the
// --platconfig kubeconfig, its server replaced by --master when given; --master alone is a server
// without credentials. Upstream falls back to the in-cluster service account; plat has none, so
// neither flag is a start-up error.
import type { ClientConnection } from '../../core/client/connection.js';
import { KubeconfigError, loadKubeconfig } from '../../core/client/kubeconfig.js';
import type { FlagSet } from '../../core/flags/types.js';
import { StartupError } from '../../core/plugin.js';
import { FLAGS } from './flags.js';

function masterUrl(master: string): URL {
  // A bare host:port is https, as client-go defaults a host without scheme once TLS is configured.
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(master) ? master : `https://${master}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new StartupError(`--${FLAGS.master}: ${JSON.stringify(master)} is not a URL`, 2);
  }
  if (url.protocol !== 'https:') throw new StartupError(`--${FLAGS.master}: ${JSON.stringify(master)}: plat talks to the API server over https only`, 2);
  if (url.username || url.password) throw new StartupError(`--${FLAGS.master}: the URL must not carry user info`, 2);
  return url;
}

/** Reads a kubeconfig file for a flag, as a StartupError naming the flag and file when it cannot. */
export function kubeconfigForFlag(flag: string, file: string): ClientConnection {
  try {
    return loadKubeconfig(file);
  } catch (e) {
    if (e instanceof KubeconfigError) throw new StartupError(`--${flag}=${file}: ${e.message}`, 1);
    throw e;
  }
}

export function standaloneConnection(flags: FlagSet): ClientConnection {
  const file = flags.get<string>(FLAGS.platconfig);
  const master = flags.get<string>(FLAGS.master);
  if (!file && !master) {
    throw new StartupError(`no API server to talk to: set --${FLAGS.platconfig} (a kubeconfig file) or --${FLAGS.master}`, 2);
  }
  if (!file) return { server: masterUrl(master) };
  const conn = kubeconfigForFlag(FLAGS.platconfig, file);
  if (master) return { ...conn, server: masterUrl(master) };
  if (conn.server.protocol !== 'https:') throw new StartupError(`--${FLAGS.platconfig}=${file}: cluster.server: plat talks to the API server over https only`, 1);
  return conn;
}
