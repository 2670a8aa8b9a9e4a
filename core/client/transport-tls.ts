// The TLS side of a connection to the API server as client-go's transport sets it up: the
// cluster's CA (or the host's roots), the user's client pair, the server name to check, and Go's
// SAN-only name check (server-identity.ts). Every request and agent to the server uses it.
import type https from 'node:https';
import type { ClientConnection } from './connection.js';
import { checkServerIdentity } from './server-identity.js';

export function transportTlsOptions(c: ClientConnection): https.AgentOptions {
  return {
    ...(c.ca ? { ca: c.ca } : {}), ...(c.clientCert ? { cert: c.clientCert } : {}), ...(c.clientKey ? { key: c.clientKey } : {}),
    rejectUnauthorized: !c.insecureSkipTlsVerify, ...(c.tlsServerName ? { servername: c.tlsServerName } : {}),
    checkServerIdentity,
  };
}
