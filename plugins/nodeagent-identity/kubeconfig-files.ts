// The kubeconfig TLS bootstrap writes at --platconfig (k8s-behaviour §5.4): the bootstrap
// kubeconfig's cluster (server, insecure-skip-tls-verify, and its CA as a file path when it named
// a file, else as data) and a user whose certificate and key are both the store's current file.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { yaml } from '../../core/yaml-module.js';
import { GO_YAML } from '../../core/api/go-yaml.js';
import { goYaml } from '../../core/api/go-yaml-marshal.js';
import { loadKubeconfig } from '../../core/client/kubeconfig.js';
import { writeFileAtomic } from '../../core/pki/index.js';
import { makeDirSync } from '../../core/make-dir.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

interface BootstrapCluster { server: string; insecure: boolean; caFile?: string; caData?: string; tlsServerName?: string }

/** The cluster the bootstrap kubeconfig's current context uses, with its CA file made absolute. */
export function bootstrapCluster(file: string): BootstrapCluster {
  const conn = loadKubeconfig(file); // validates the whole file, reads the CA
  const doc = yaml().parse(readFileSync(file, 'utf8'), GO_YAML) as Obj;
  const contexts = Array.isArray(doc['contexts']) ? doc['contexts'] as Obj[] : [];
  const current = contexts.find((c) => c['name'] === doc['current-context']) ?? contexts[0];
  const clusterName = isObj(current?.['context']) ? current!['context']['cluster'] : undefined;
  const clusters = Array.isArray(doc['clusters']) ? doc['clusters'] as Obj[] : [];
  const entry = clusters.find((c) => c['name'] === clusterName) ?? clusters[0];
  const cluster = isObj(entry?.['cluster']) ? entry!['cluster'] : {};
  const caRef = typeof cluster['certificate-authority'] === 'string' ? cluster['certificate-authority'] : undefined;
  return {
    server: conn.server.toString().replace(/\/$/, ''),
    insecure: conn.insecureSkipTlsVerify,
    ...(caRef ? { caFile: path.resolve(path.dirname(path.resolve(file)), caRef) } : conn.ca ? { caData: conn.ca.toString('base64') } : {}),
    ...(conn.tlsServerName ? { tlsServerName: conn.tlsServerName } : {}),
  };
}

/** Writes the node's kubeconfig (mode 0600): default-cluster / default-auth / default-context. */
export async function writeNodeKubeconfig(file: string, cluster: BootstrapCluster, certPath: string): Promise<void> {
  const doc = {
    apiVersion: 'v1', kind: 'Config',
    clusters: [{
      name: 'default-cluster',
      cluster: {
        server: cluster.server,
        ...(cluster.insecure ? { 'insecure-skip-tls-verify': true } : {}),
        ...(cluster.caFile ? { 'certificate-authority': cluster.caFile } : {}),
        ...(cluster.caData ? { 'certificate-authority-data': cluster.caData } : {}),
        ...(cluster.tlsServerName ? { 'tls-server-name': cluster.tlsServerName } : {}),
      },
    }],
    users: [{ name: 'default-auth', user: { 'client-certificate': certPath, 'client-key': certPath } }],
    contexts: [{ name: 'default-context', context: { cluster: 'default-cluster', user: 'default-auth', namespace: 'default' } }],
    'current-context': 'default-context',
  };
  makeDirSync(path.dirname(path.resolve(file)), 0o700);
  // As clientcmd writes it (sigs.k8s.io/yaml): a YAML 1.1 reader such as kubectl must read back a
  // TLS server name `on` or a path `0777` as the string, which plain YAML 1.2 output would not give.
  await writeFileAtomic(file, goYaml(doc), 0o600);
}
