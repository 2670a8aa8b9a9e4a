// What the authorization-API tests share: kubernetes protobuf request bodies built by hand (to
// send what kubectl sends, and what it never would), and a kubeconfig for a token user.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir, type RunningPlat } from '../helpers/plat.js';

export const PROTOBUF = { 'content-type': 'application/vnd.kubernetes.protobuf' };

export const varint = (n: number): Buffer => {
  const out: number[] = [];
  for (; n >= 0x80; n = Math.floor(n / 128)) out.push((n % 128) | 0x80);
  out.push(n);
  return Buffer.from(out);
};

/** A length-delimited field (wire type 2). */
export const field = (no: number, bytes: Buffer | string): Buffer => {
  const b = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  return Buffer.concat([varint((no << 3) | 2), varint(b.length), b]);
};

/** runtime.Unknown in the `k8s\0` envelope: TypeMeta (apiVersion, kind), then the raw message. */
export const protoEnvelope = (apiVersion: string, kind: string, raw: Buffer): Buffer => Buffer.concat([
  Buffer.from('k8s\0', 'latin1'), field(1, Buffer.concat([field(1, apiVersion), field(2, kind)])), field(2, raw),
]);

/** A kubeconfig for a bearer-token user, namespace `team`, trusting plat's CA. */
export function tokenKubeconfig(plat: RunningPlat, token: string, prefix: string): string {
  const file = path.join(tempDir(prefix), 'user.conf');
  writeFileSync(file, `apiVersion: v1\nkind: Config\nclusters:\n- name: plat\n  cluster:\n    server: ${plat.url}\n    certificate-authority: ${path.join(plat.dataDir, 'pki', 'ca.crt')}\nusers:\n- name: u\n  user:\n    token: ${token}\ncontexts:\n- name: c\n  context: {cluster: plat, user: u, namespace: team}\ncurrent-context: c\n`);
  return file;
}
