// A kubeconfig naming a plain-HTTP server on loopback (which plat's clients speak to over HTTP)
// with a bearer token: for `plat csr` against a fake API server that answers as a test needs.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from './plat.js';

export const writeLoopbackKubeconfig = (port: number): string => writeServerKubeconfig(`http://127.0.0.1:${port}`);

/** The same for any server URL, with no CA: an https server's certificate is checked against the system's roots. */
export function writeServerKubeconfig(server: string): string {
  const file = path.join(tempDir(), 'http.conf');
  writeFileSync(file, `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "${server}"}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
`);
  return file;
}
