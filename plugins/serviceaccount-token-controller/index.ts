// ServiceAccountTokenController: registers upstream's `serviceaccount-token-controller` (alias
// `serviceaccount-token`, on by default) with the controller manager, first of all controllers as
// upstream starts it, with the manager's own credentials (upstream's root client: it makes the
// tokens other clients would need). It runs only with --service-account-private-key-file (the key
// signing legacy tokens); --root-ca-file (else the CA of the manager's own connection) goes into
// each Secret's `ca.crt`; --concurrent-serviceaccount-token-syncs workers (5) serve each queue.
import { readFileSync } from 'node:fs';
import type { FlagSet } from '../../core/flags/types.js';
import type { Host } from '../../core/host.js';
import type { ControllerContext } from '../../core/lifecycle.js';
import type { Plugin } from '../../core/plugin.js';
import { algorithmForKey, keyId, signJwt } from '../../core/authn/jwt.js';
import { privateKeyFromFile } from '../../core/authn/key-files.js';
import { parseCaBundle } from '../../core/authn/x509/ca-bundle.js';
import { osErrorText } from '../../core/go-os-error.js';
import { legacyTokenClaims } from '../../core/authn/legacy-service-account-token.js';
import { tokensController } from './controller.js';

const PLUGIN_NAME = 'ServiceAccountTokenController';
/** The controller's name upstream (health checks, logger, --help). */
export const CONTROLLER_NAME = 'serviceaccount-token-controller';
const CONTROLLER_ALIASES = ['serviceaccount-token'];
/** Upstream's rootClientBuilder.ClientOrDie name: the agent's suffix. */
export const TOKENS_CONTROLLER_CLIENT = 'tokens-controller';

export const FLAG = {
  privateKeyFile: 'service-account-private-key-file',
  rootCaFile: 'root-ca-file',
  concurrency: 'concurrent-serviceaccount-token-syncs',
} as const;
const CONCURRENCY_DEFAULT = 5;

function defineFlags(flags: FlagSet): void {
  // As the spec's catalogue has them (host/flag-catalogue/controller-manager.ts).
  flags.define({ name: FLAG.rootCaFile, type: 'string', section: 'Certificate signing', help: 'Root CA (PEM bundle) included in service account token secrets.' });
  flags.define({ name: FLAG.privateKeyFile, type: 'string', section: 'Certificate signing', help: 'Enables legacy secret-based tokens; PEM RSA or ECDSA key signing service account tokens.' });
  flags.define({
    name: FLAG.concurrency, type: 'int', typeName: 'int32', default: CONCURRENCY_DEFAULT, section: 'Concurrency',
    help: 'Number of objects synced concurrently.',
    validate: (v) => (typeof v === 'number' && v >= 0 ? undefined : 'must not be negative'),
  });
}

const flagOr = <T>(flags: FlagSet, name: string, fallback: T): T => (flags.has(name) ? flags.get<T>(name) : fallback);

/** readCA: the file's bytes, which must hold at least one certificate (certutil.ParseCertsPEM). */
function readRootCA(file: string): Buffer {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (e) {
    throw new Error(`error parsing root-ca-file at ${file}: ${osErrorText('open', file, e)}`);
  }
  try {
    parseCaBundle(bytes.toString('latin1'), '');
  } catch (e) {
    throw new Error(`error parsing root-ca-file at ${file}: ${(e as Error).message}`);
  }
  return bytes;
}

/** startServiceAccountTokenController. */
function start(ctx: ControllerContext, settings: Partial<Record<keyof typeof FLAG, unknown>>) {
  const keyFile = (settings.privateKeyFile ?? flagOr(ctx.flags, FLAG.privateKeyFile, '')) as string;
  if (!keyFile) {
    ctx.logger.info('Controller is disabled because there is no private key', { controller: CONTROLLER_NAME });
    return undefined;
  }
  let key;
  try {
    key = privateKeyFromFile(keyFile);
  } catch (e) {
    throw new Error(`error reading key for service account token controller: ${(e as Error).message}`);
  }
  const caFile = (settings.rootCaFile ?? flagOr(ctx.flags, FLAG.rootCaFile, '')) as string;
  const rootCA = caFile ? readRootCA(caFile) : ctx.rootCA;
  const alg = algorithmForKey(key);
  const kid = keyId(key);
  return tokensController(ctx, CONTROLLER_NAME, {
    workers: (settings.concurrency ?? flagOr(ctx.flags, FLAG.concurrency, CONCURRENCY_DEFAULT)) as number,
    ...(rootCA ? { rootCA } : {}),
    generateToken: (sa, secret) => signJwt(legacyTokenClaims({
      namespace: sa.metadata.namespace ?? '', serviceAccountName: sa.metadata.name ?? '', serviceAccountUID: sa.metadata.uid ?? '', secretName: secret.metadata.name ?? '',
    }), key, { alg, kid }),
  });
}

/** The plugin with settings in place of the flags (tests run it outside a controller manager). */
export function serviceAccountTokenController(settings: { privateKeyFile?: string; rootCaFile?: string; concurrency?: number } = {}): Plugin {
  return {
    name: PLUGIN_NAME,
    apply(host: Host): void {
      host.hooks.flags.tap(PLUGIN_NAME, defineFlags);
      host.hooks.controllers.tap(PLUGIN_NAME, (registry) => registry.register(CONTROLLER_NAME, (ctx) => start(ctx, settings),
        { enabledByDefault: true, clientName: TOKENS_CONTROLLER_CLIENT, aliases: CONTROLLER_ALIASES, rootClient: true }));
    },
  };
}

export const ServiceAccountTokenController: Plugin = serviceAccountTokenController();

export { tokensController, type TokensControllerOptions } from './controller.js';
