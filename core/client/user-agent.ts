// The User-Agent plat's components send, as client-go's rest.DefaultKubernetesUserAgent and
// AddUserAgent build theirs: the API server's logs and audit lines show it, so operators tell one
// component (and one controller's client) from another by it.
import { goPlatform } from '../go-platform.js';
import { versionInfo } from '../version.js';

/**
 * `<command>/<gitVersion up to its first '-'> (<GOOS>/<GOARCH>) platform/<commit, 7 characters at
 * most>`: upstream's `<basename of argv0>/... kubernetes/<commit>`, with the component's name as
 * the command (every plat role is one `plat` binary) and plat's version.Info.
 */
export function defaultUserAgent(command: string, version: string, gitVersion?: string): string {
  const info = versionInfo(version, gitVersion);
  const v = info.gitVersion === '' ? 'unknown' : info.gitVersion.split('-', 1)[0]!;
  const commit = info.gitCommit === '' ? 'unknown' : info.gitCommit.slice(0, 7);
  return `${command || 'unknown'}/${v} (${goPlatform()}) platform/${commit}`;
}

/** restclient.AddUserAgent: the default agent with `/<name>`; it replaces any agent set before. */
export const addUserAgent = (defaultAgent: string, name: string): string => `${defaultAgent}/${name}`;
