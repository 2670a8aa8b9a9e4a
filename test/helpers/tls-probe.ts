// Probes of a running TLS server for tests of files changed under it: which certificate a new
// handshake is given, and what status a request with a given client certificate gets. Neither
// verifies the server: the point is what it serves, not whether a client would trust it.
import { spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { request } from 'node:https';
import { connect } from 'node:tls';

/** The leaf a fresh handshake with 127.0.0.1:`port` is given, optionally asking for `servername`. */
export function servedCertificate(port: number, servername?: string): Promise<X509Certificate> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false, ...(servername ? { servername } : {}) }, () => {
      const raw = socket.getPeerCertificate().raw;
      socket.destroy();
      resolve(new X509Certificate(raw));
    });
    socket.on('error', reject);
  });
}

/** The status of GET `path` on a new connection presenting `client` (if any). */
export function statusWith(port: number, path: string, client?: { certificatePem: string; privateKeyPem: string }): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1', port, path, method: 'GET', agent: false, rejectUnauthorized: false,
      ...(client ? { cert: client.certificatePem, key: client.privateKeyPem } : {}),
    }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * What `openssl s_client` is told by 127.0.0.1:`port` about client certificates: undefined when the
 * server asks for none, else the acceptable CA names it offers (one subject a line, as `CN = x`; '' for none).
 */
export function clientCertificateRequest(port: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const child = spawn('openssl', ['s_client', '-connect', `127.0.0.1:${port}`, '-servername', 'localhost'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => { out += c.toString('utf8'); });
    child.on('error', reject);
    child.on('close', () => {
      // A CertificateRequest is what makes openssl print the signature algorithms it asks for.
      if (!/^Requested Signature Algorithms/m.test(out)) return resolve(undefined);
      resolve(/Acceptable client certificate CA names\n([\s\S]*?)\n(?:Requested|Client Certificate Types)/.exec(out)?.[1] ?? '');
    });
    child.stdin.end();
  });
}
