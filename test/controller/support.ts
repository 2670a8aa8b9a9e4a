import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ClientConnection } from '../../core/client/connection.js';
import type { RunningPlat } from '../helpers/plat.js';

/** The all-in-one admin's connection (client certificate in system:masters). */
export function adminConnection(plat: RunningPlat): ClientConnection {
  const pki = path.join(plat.dataDir, 'pki');
  return {
    server: new URL(plat.url), ca: readFileSync(path.join(pki, 'ca.crt')),
    clientCert: readFileSync(path.join(pki, 'admin.crt')), clientKey: readFileSync(path.join(pki, 'admin.key')),
  };
}
