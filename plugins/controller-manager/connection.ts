// Where `plat controller-manager` finds its API server, as clientcmd.BuildConfigFromFlags: the
// --platconfig kubeconfig, its server (and tls-server-name) replaced by --master when given;
// --master alone is a server without credentials. Upstream falls back to the in-cluster service
// account; plat has none, so neither flag is a start-up error.
import path from 'node:path';
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

/**
 * Reads a kubeconfig file, as a StartupError naming where the path was given (the flag, or the
 * --config file and field) and the file when it cannot. A relative path starts at the working
 * directory wherever it was given; the message shows what it resolved to.
 */
function kubeconfigFrom(label: string, file: string, server: URL | undefined): ClientConnection {
  try {
    return loadKubeconfig(file, server ? { server } : {});
  } catch (e) {
    if (!(e instanceof KubeconfigError)) throw e;
    const resolved = path.isAbsolute(file) ? '' : ` (${path.resolve(file)})`;
    throw new StartupError(`${label}${resolved}: ${e.message}`, 1);
  }
}

export function standaloneConnection(flags: FlagSet): ClientConnection {
  const file = flags.get<string>(FLAGS.platconfig);
  const master = flags.get<string>(FLAGS.master);
  if (!file && !master) {
    throw new StartupError(`no API server to talk to: set --${FLAGS.platconfig} (a kubeconfig file) or --${FLAGS.master}`, 2);
  }
  if (!file) return { server: masterUrl(master) };
  const label = flags.isSetOnCommandLine(FLAGS.platconfig) ? `--${FLAGS.platconfig}=${file}` : `${flags.sourceOf(FLAGS.platconfig)}: ${file}`;
  // clientcmd's ConfigOverrides.ClusterInfo: the file's cluster with --master as its server (and
  // without its tls-server-name, which named the server being replaced).
  const server = master ? masterUrl(master) : undefined;
  const conn = kubeconfigFrom(label, file, server);
  if (server) return conn;
  if (conn.server.protocol !== 'https:') throw new StartupError(`${label}: cluster.server: plat talks to the API server over https only`, 1);
  return conn;
}
