// A kubeconfig naming a plain-HTTP server on loopback (which plat's clients speak to over HTTP)
// with a bearer token: for `plat csr` against a fake API server that answers as a test needs.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from './plat.js';

export function writeLoopbackKubeconfig(port: number): string {
  const file = path.join(tempDir(), 'http.conf');
  writeFileSync(file, `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "http://127.0.0.1:${port}"}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
`);
  return file;
}
