// How a client reaches the API server: the server URL and the TLS and bearer credentials, with file
// contents already read (a kubeconfig's cluster and user, or the all-in-one role's own files).
import type { Duplex } from 'node:stream';
import type { Impersonation } from './kubeconfig-impersonation.js';
import type { CredentialSource } from './credential-source.js';
import type { ClientCertFiles } from './client-cert-files.js';

export interface ClientConnection {
  readonly server: URL;
  /** PEM bundle to trust instead of the host's root set. */
  readonly ca?: Buffer | string;
  readonly insecureSkipTlsVerify?: boolean;
  readonly tlsServerName?: string;
  /** An http, https or socks5 proxy to reach an https server through (a kubeconfig cluster's proxy-url). */
  readonly proxyUrl?: URL;
  readonly clientCert?: Buffer | string;
  readonly clientKey?: Buffer | string;
  /**
   * The files clientCert and clientKey were read from, followed while the client runs (a new pair
   * closes its connections); whoever sets another clientCert/clientKey drops this too.
   */
  readonly clientCertFiles?: ClientCertFiles;
  readonly token?: string;
  /**
   * Credentials asked for before each request (a kubeconfig's token file, basic auth or exec
   * plugin), told of each 401; a client certificate among them replaces clientCert/clientKey.
   */
  readonly credentials?: CredentialSource;
  /** Who every request asks to act as (a kubeconfig user's `as`, with kubectl's --as* over it). */
  readonly impersonate?: Impersonation;
  /**
   * Opens a connection to the server without a network (the API server of the same process):
   * requests go over it as plain HTTP/1.1, and the credentials are whatever it presents.
   */
  readonly dial?: () => Duplex;
}
