// The whole extension surface of plat, in one frozen object. The hook class is the combination
// policy: bail = first answer wins (authenticate, authorize, sign), series = ordered and the first
// error stops (admission, start), parallel = fan-out (audit, ready), and shutdown fans out by stage
// (SHUTDOWN_STAGE). Plugins only tap; the owner (Host, server, controllers) calls.
import * as tapable from 'tapable';
import type { FlagSet } from './flags/types.js';
import type { ResourceRegistry } from './registry/resource.js';
import type { AuthenticationRequest, UserInfo } from './authn/user.js';
import type { Attributes, Decision } from './authz/attributes.js';
import type { AdmissionRequest } from './admission/request.js';
import type { AuditEvent } from './audit.js';
import type { ClientAuthorities } from './authn/client-authorities.js';
import { guardHooks } from './hooks-guard.js';
import { awaitPromiseTaps, refusePromiseTaps } from './promise-taps.js';
import { collectNoOpinionReasons, type NoOpinionReasons } from './authz/union.js';
import { collectRules, type RulesAnswers } from './authz/rules-union.js';
import type { RulesQuery, UserRules } from './authz/rules.js';
import { createSignHookMap } from './signing.js';
import { runByStage } from './staged-parallel.js';
import { markOwner, runAsOwner } from './tap-owners.js';
import { trackPendingTaps } from './start-watch.js';
import type { ControllerRegistry, SubsystemRegistry } from './lifecycle.js';

const { SyncHook, AsyncSeriesBailHook, AsyncSeriesHook, AsyncParallelHook } = tapable;

/** Passed to `configure` after flags and the config file are parsed. */
export interface Configuration {
  readonly role: string;
  readonly flags: FlagSet;
  /**
   * Per-plugin options from the config file, by plugin name. A plugin listed twice has two
   * entries: each one's configure taps see that entry's options under the name.
   */
  readonly pluginOptions: ReadonlyMap<string, unknown>;
  /**
   * The config file's absolute path and its directory, when a config file was found: a plugin
   * resolves relative paths in its options against configDir, as plat does its module paths,
   * not against the process's working directory.
   */
  readonly configFile?: string;
  readonly configDir?: string;
}

/**
 * Handed to every `start` tap. A tap may ignore it (`() => ...` taps keep working); one that waits
 * on something outside the process (a lock, a peer, a file to appear) should stop on `signal`.
 */
export interface StartContext {
  /**
   * Aborted when start-up is stopped (SIGTERM or SIGINT before start-up ended); its `reason` is
   * what stopped it (`received SIGTERM`). The host stops waiting on the start taps then, and a
   * tap that does not stop on it is left running behind the shutdown.
   */
  readonly signal: AbortSignal;
}

export function createHooks() {
  const hooks = guardHooks({
    // boot: declare, then configure
    flags: new SyncHook<[FlagSet]>(['flags']),
    configure: new SyncHook<[Configuration]>(['configuration']),
    resources: new SyncHook<[ResourceRegistry]>(['registry']),

    // request path (apiserver)
    authenticate: new AsyncSeriesBailHook<[AuthenticationRequest], UserInfo | undefined>(['request']),
    clientAuthorities: new SyncHook<[ClientAuthorities]>(['authorities']),
    // A no-opinion answer passes on, its reason kept for the end of the chain (authz/union.ts).
    authorize: new AsyncSeriesBailHook<[Attributes, NoOpinionReasons], Decision | undefined>(['attributes', 'noOpinionReasons']),
    // What each authorizer would allow a user (SelfSubjectRulesReview): every tap answers, beside
    // its `authorize` tap of the same name; none bails (authz/rules-union.ts).
    rulesFor: new AsyncSeriesBailHook<[RulesQuery, RulesAnswers], UserRules | undefined>(['query', 'answers']),
    admitMutate: new AsyncSeriesHook<[AdmissionRequest]>(['request']),
    admitValidate: new AsyncSeriesHook<[AdmissionRequest]>(['request']),
    audit: new AsyncParallelHook<[AuditEvent]>(['event']),

    // certificates
    sign: createSignHookMap(),

    // long-running parts
    controllers: new SyncHook<[ControllerRegistry]>(['registry']),
    nodeAgent: new SyncHook<[SubsystemRegistry]>(['registry']),

    // lifecycle
    start: new AsyncSeriesHook<[StartContext]>(['context']),
    ready: new AsyncParallelHook<[]>([]),
    shutdown: new AsyncParallelHook<[]>([]),
  });
  // First, before the interceptors below: they then see a sync tap's Promise settled (core/promise-taps.ts).
  for (const name of ['authenticate', 'authorize', 'rulesFor', 'admitMutate', 'admitValidate', 'audit', 'start', 'ready', 'shutdown'] as const) awaitPromiseTaps(hooks[name]);
  for (const name of ['flags', 'configure', 'resources', 'clientAuthorities', 'controllers', 'nodeAgent'] as const) refusePromiseTaps(hooks[name], name);
  // Every tap knows its plugin; taps made by a lifecycle tap are that tap's plugin's (core/tap-owners.ts).
  // (The sign hooks' own map marks theirs, before it traces them: core/signing.ts.)
  for (const name of Object.keys(hooks) as (keyof typeof hooks)[]) if (name !== 'sign') hooks[name].intercept({ register: markOwner });
  for (const name of ['configure', 'start', 'ready'] as const) hooks[name].intercept({ register: runAsOwner });
  // Start-up names a ready tap that has not settled (core/start-watch.ts).
  trackPendingTaps(hooks.ready);
  collectNoOpinionReasons(hooks.authorize);
  collectRules(hooks.rulesFor);
  runByStage(hooks.shutdown);
  return hooks;
}

/**
 * The `stage` of a shutdown tap: the taps of one stage run together, a later stage once the
 * earlier ones have all ended. Taps without a stage (0) come after the API server has drained:
 * the request path (authenticators, webhooks) keeps working for the requests still in flight.
 */
export const SHUTDOWN_STAGE = Object.freeze({
  /** Callers of the API server in its own process (`plat all`'s controllers): their last writes land. */
  clients: -200,
  /** The API server's drain: no new connections, the requests in flight finish. */
  serving: -100,
  /** The store, after everything that may still write to it. */
  storage: 100,
});

export type Hooks = ReturnType<typeof createHooks>;
export type HookName = keyof Hooks;

/**
 * The hooks the host calls for every command (boot, then shutdown). Every other hook is called by
 * a plugin, which says so in its `calls` (core/plugin.ts): a command calls what its profile's
 * plugins declare, and a tap on any other hook is named at start-up (core/uncalled-taps.ts).
 */
export const HOST_CALLED: readonly HookName[] = ['flags', 'configure', 'start', 'ready', 'shutdown'];
