// The contract between the signing controller and signer plugins (hooks.sign.for(signerName)),
// and the hook map itself, which remembers its signerNames (tapable's HookMap cannot list them).
import * as tapable from 'tapable';
import type { ApiObject } from './api/meta.js';
import { awaitPromiseTaps } from './promise-taps.js';
import { runningTap } from './running-tap.js';
import { markOwner, ownerOf } from './tap-owners.js';

const { AsyncSeriesBailHook, HookMap } = tapable;

export interface SigningRequest {
  readonly signerName: string;
  /** The approved CertificateSigningRequest. */
  readonly csr: ApiObject;
  /** PEM of spec.request. */
  readonly requestPem: string;
  readonly usages: readonly string[];
  readonly expirationSeconds?: number;
  readonly now: Date;
  /**
   * Aborted when the controller stops waiting for this answer: the signer took longer than the
   * controller's limit (an error, retried with backoff), or the controller is stopping. Whatever
   * the signer answers afterwards is dropped.
   */
  readonly signal: AbortSignal;
}

export type SigningResult =
  | { readonly certificatePem: string }
  /** The signer refuses: the controller adds a Failed condition with this reason and message. */
  | { readonly failed: { readonly reason: string; readonly message: string } };

export type SignHookMap = tapable.HookMap<tapable.AsyncSeriesBailHook<[SigningRequest], SigningResult | undefined>>;

const signerNames = new WeakMap<SignHookMap, Set<string>>();

export function createSignHookMap(): SignHookMap {
  const map: SignHookMap = new HookMap(() => new AsyncSeriesBailHook<[SigningRequest], SigningResult | undefined>(['request']));
  const names = new Set<string>();
  // Traced from the start, so that the controller can name the signer a call is in (core/running-tap.ts).
  // Marked with their plugin before the tracing, which then names the plugin, not only the tap.
  map.intercept({ factory: (key: string, hook) => { names.add(key); awaitPromiseTaps(hook!); hook!.intercept({ register: markOwner }); runningTap(hook!); return hook!; } });
  signerNames.set(map, names);
  // tapable's HookMap keeps deprecated tap/tapAsync/tapPromise(key, options, fn): a signer that
  // writes hooks.sign.tapPromise(name, fn) gets "Invalid tap options", which does not say what to do.
  for (const method of ['tap', 'tapAsync', 'tapPromise'] as const) {
    Object.defineProperty(map, method, { value: () => {
      throw new TypeError(`host.hooks.sign is keyed by signerName: tap host.hooks.sign.for('<signerName>').${method}(name, fn), not host.hooks.sign.${method}`);
    } });
  }
  return map;
}

/** The signerNames whose hook exists (`for` was called), tapped or not yet. */
export function knownSigners(map: SignHookMap): string[] {
  return [...(signerNames.get(map) ?? [])];
}

/** The signerNames some plugin has tapped. */
export function tappedSigners(map: SignHookMap): string[] {
  return knownSigners(map).filter((name) => map.get(name)?.isUsed());
}

/** The taps of `signerName` in the order a CSR is handed to them: each one's plugin, and its name when it differs. */
export function signerTaps(map: SignHookMap, signerName: string): { plugin: string; tap?: string }[] {
  return map.get(signerName)?.taps.map((t) => ownerOf(t)) ?? [];
}

/** How an error names the tap of a signer: `plugin "MySigner"`, or `plugin "MySigner", tap "hsm"`. */
export function describeSignerTap(owner: { plugin: string; tap?: string }): string {
  return `plugin ${JSON.stringify(owner.plugin)}${owner.tap === undefined ? '' : `, tap ${JSON.stringify(owner.tap)}`}`;
}
