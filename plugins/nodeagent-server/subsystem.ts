// The `server` subsystem: builds the secure server's authentication, authorization and TLS settings
// from the configuration when the agent is assembled (every problem is a start-up error naming the
// field), then runs the three listeners (upstream's startKubelet and the health server of
// cmd/kubelet): the read-only and health ports at once, the secure port once the identity
// subsystem has set the slot (a pair, or null: no certificate yet, handshakes fail), switching
// certificates in place whenever it sets a new one.
import { whenAborted } from '../../core/abort-wait.js';
import { parseDuration } from '../../core/flags/duration.js';
import type { Runnable } from '../../core/lifecycle.js';
import type { Logger } from '../../core/log.js';
import type { WatchedFiles } from '../../core/tls/watched-files.js';
import { legacyBootstrap, type NodeAgentContext, type TlsPair } from '../../core/nodeagent/context.js';
import { StartupError } from '../../core/plugin.js';
import { createHealthApp, createReadOnlyApp, createSecureApp } from './app.js';
import { DelegatingAuthenticator } from '../../core/authn/delegating-authenticator.js';
import { alwaysAllow, SubjectAccessReviewer, type NodeAgentAuthorizer } from './authorization.js';
import { watchClientCaFile } from './client-ca.js';
import { joinHostPort } from '../../core/server/bind-address.js';
import { IDLE_TIMEOUT_MS } from '../../core/server/idle-timeout.js';
import { listenPlain, listenSecure, type Listening, type SecureListening } from './listeners.js';
import { TokenReviewer } from '../../core/authn/token-review-client.js';
import { legacyVersionWarning, tlsSettings, TlsSettingsError, type TlsSettings } from '../../core/server/tls-settings.js';
import { v8Profiler } from '../../core/server/debug/index.js';
import { HealthSlis } from '../../core/metrics/health-slis.js';

export interface ServerSubsystemOptions {
  /** The directory /logs/ serves (upstream: /var/log/). */
  readonly systemLogDir?: string;
  /** The journalctl the node log query runs. */
  readonly journalctl?: string;
  /** The clock of the review caches (tests move it instead of waiting out a TTL). */
  readonly now?: () => number;
}

interface SecureSettings {
  readonly tls: TlsSettings;
  /**
   * The client CA TLS names to clients as acceptable issuers: the file as read at start-up, as
   * upstream's InitializeTLS builds ClientCAs once (until 1.36's ReloadKubeletClientCAFile). It
   * decides nothing: the authenticator verifies against the watched file.
   */
  readonly clientCa?: string;
  readonly clientCaFile?: WatchedFiles<string>;
  readonly authenticator: DelegatingAuthenticator;
  readonly authorizer: NodeAgentAuthorizer;
}

function duration(field: string, value: string): number {
  try {
    return parseDuration(value);
  } catch (e) {
    throw new StartupError(`${field}: ${(e as Error).message}`);
  }
}

/** Upstream's BuildAuth and InitializeTLS, for the secure port. */
function secureSettings(ctx: NodeAgentContext, now: () => number, log: Logger): SecureSettings {
  const c = ctx.config;
  let tls: TlsSettings;
  try {
    tls = tlsSettings(c.tlsMinVersion, c.tlsCipherSuites);
  } catch (e) {
    if (e instanceof TlsSettingsError) throw new StartupError(`${e.setting === 'minVersion' ? 'tlsMinVersion' : 'tlsCipherSuites'}: ${e.message}`);
    throw e;
  }
  const api = () => ctx.api.get();
  const authn = c.authentication;
  let clientCaFile: WatchedFiles<string> | undefined;
  if (authn.x509.clientCAFile) {
    try { clientCaFile = watchClientCaFile(authn.x509.clientCAFile, log); } catch (e) { throw new StartupError((e as Error).message); }
  }
  const clientCa = clientCaFile?.current();
  let tokens: TokenReviewer | undefined;
  if (authn.webhook.enabled) {
    if (ctx.standalone) throw new StartupError('authentication.webhook.enabled: no client provided, cannot use webhook authentication (standalone mode has no API server)');
    tokens = new TokenReviewer(api, duration('authentication.webhook.cacheTTL', authn.webhook.cacheTTL), now, log);
  }
  let authenticator: DelegatingAuthenticator;
  try {
    authenticator = new DelegatingAuthenticator({ ...(clientCaFile ? { clientCa: clientCaFile } : {}), ...(tokens ? { tokens } : {}), anonymous: authn.anonymous.enabled });
  } catch (e) {
    throw new StartupError(`authentication: ${(e as Error).message}`);
  }
  const authz = c.authorization;
  let authorizer: NodeAgentAuthorizer;
  switch (authz.mode) {
    case 'AlwaysAllow':
      authorizer = alwaysAllow;
      break;
    case 'Webhook':
      if (ctx.standalone) throw new StartupError('authorization.mode: no client provided, cannot use webhook authorization (standalone mode has no API server)');
      authorizer = new SubjectAccessReviewer(api, {
        allowedMs: duration('authorization.webhook.cacheAuthorizedTTL', authz.webhook.cacheAuthorizedTTL),
        deniedMs: duration('authorization.webhook.cacheUnauthorizedTTL', authz.webhook.cacheUnauthorizedTTL),
      }, now);
      break;
    default:
      throw new StartupError(authz.mode ? `authorization.mode: Unknown authorization mode ${authz.mode as string}` : 'authorization.mode: No authorization mode specified');
  }
  return { tls, ...(clientCa && clientCaFile ? { clientCa, clientCaFile } : {}), authenticator, authorizer };
}

export function createServerSubsystem(ctx: NodeAgentContext, o: ServerSubsystemOptions = {}): Runnable {
  const c = ctx.config;
  const log = ctx.logger.child('server');
  const secure = c.enableServer ? secureSettings(ctx, o.now ?? (() => performance.now()), log) : undefined;
  const profiling = c.enableServer && c.enableDebuggingHandlers && c.enableProfilingHandler;
  const logs = { root: o.systemLogDir ?? '/var/log/', journalctl: o.journalctl ?? 'journalctl' };
  // slis.Registry: one for the agent, whichever server evaluated the checks.
  const slis = new HealthSlis();

  return {
    async run(signal: AbortSignal): Promise<void> {
      // No port (health, read-only, secure) opens before a legacy bootstrap has the node's
      // identity: the kubelet's servers start after LoadClientCert, so a health probe does not
      // call a node healthy that cannot reach its API server yet.
      if (legacyBootstrap(ctx)) {
        try { await ctx.api.wait(signal); } catch { return; }
      }
      const open: Listening[] = [];
      let stopWatching = () => {};
      if (profiling) await v8Profiler.acquire();
      secure?.clientCaFile?.start();
      try {
        if (c.readOnlyPort > 0) {
          log.info('Starting to listen read-only', { address: c.address, port: c.readOnlyPort });
          open.push(await listenPlain(createReadOnlyApp({ agent: ctx, log, slis }), 'the read-only server', c.address, c.readOnlyPort, IDLE_TIMEOUT_MS));
        }
        if (c.healthzPort > 0) {
          open.push(await listenPlain(createHealthApp({ agent: ctx, log, slis }), 'the health server', c.healthzBindAddress, c.healthzPort, null));
          log.info('Serving healthz', { address: joinHostPort(c.healthzBindAddress, c.healthzPort) });
        }
        if (secure) {
          for (const name of secure.tls.insecure) log.info('Use of insecure cipher detected.', { cipher: name });
          if (secure.tls.suitesIgnored) log.info('Warning: TLS 1.3 cipher suites are not configurable, ignoring --tls-cipher-suites');
          if (secure.tls.securityLevelLowered) log.warn(legacyVersionWarning('tlsMinVersion', c.tlsMinVersion));
          let pair: TlsPair | null;
          try {
            pair = await ctx.servingPair.wait(signal);
          } catch {
            return;
          }
          const app = createSecureApp({ agent: ctx, log, logs, shutdown: signal, slis, authenticator: secure.authenticator, authorizer: secure.authorizer });
          log.info('Starting to listen', { address: c.address, port: c.port });
          let server: SecureListening;
          try {
            server = await listenSecure(app, { host: c.address, port: c.port, pair, tls: secure.tls, log, ...(secure.clientCa ? { clientCa: secure.clientCa } : {}) });
          } catch (e) {
            if (e instanceof Error && e.name === 'BindError') throw e;
            throw new Error(`the secure server cannot use its serving certificate: ${(e as Error).message}`);
          }
          open.push(server);
          const switchTo = (next: TlsPair | null) => {
            try {
              server.usePair(next);
              if (next) log.info('serving certificate changed: new connections get the new certificate');
            } catch (e) {
              log.error('the new serving certificate is unusable; keeping the current one', { error: (e as Error).message });
            }
          };
          stopWatching = ctx.servingPair.onChange(switchTo);
          // A pair set while the listener was being bound is not missed.
          const current = ctx.servingPair.get();
          if (current !== undefined && current !== pair) switchTo(current);
        }
        await whenAborted(signal);
      } finally {
        stopWatching();
        secure?.clientCaFile?.stop();
        await Promise.all(open.map((l) => l.close()));
        if (profiling) await v8Profiler.release();
      }
    },
  };
}
