// What one `plat bench issue` run is asked to do, with the command's defaults.
import type { KeyType } from '../../core/crypto/index.js';

export const KEY_TYPES = { p256: 'ecdsa-p256', ed25519: 'ed25519', rsa2048: 'rsa-2048' } as const satisfies Record<string, KeyType>;
export type BenchKeyType = keyof typeof KEY_TYPES;
export const KEY_LABEL: Readonly<Record<BenchKeyType, string>> = { p256: 'P-256', ed25519: 'Ed25519', rsa2048: 'RSA-2048' };

/** Where the signing controller runs: inside `plat all`, or in a `plat controller-manager` of its own. */
export const CONTROLLER_MODES = ['embedded', 'separate'] as const;
export type ControllerMode = (typeof CONTROLLER_MODES)[number];

export interface IssueBenchOptions {
  readonly csrs: number;
  readonly concurrency: number;
  /** Each key type is a run of its own: CSR keys and the CA alike. */
  readonly keyTypes: readonly BenchKeyType[];
  /** CSRs issued through each target before timing starts (not counted). */
  readonly warmup: number;
  readonly controller: ControllerMode;
  /** --plat-api-qps / --plat-api-burst of the controller's API client. */
  readonly apiQps: number;
  readonly apiBurst: number;
  /** Run plat's processes under `node --cpu-prof`, profiles written here ('' not). */
  readonly cpuProfDir?: string;
  /** Also measure plat's create and approve requests one kind at a time (a second plat all, nothing signed). */
  readonly stages?: boolean;
  /** The cfssl binary; '' skips cfssl. */
  readonly cfssl: string;
  /** Also measure cfssl serve with HTTPS, client certificates and its certificate database. */
  readonly cfsslStored: boolean;
  /** Progress lines go here (stderr by the command, nowhere in tests). */
  readonly log?: (line: string) => void;
}

export const DEFAULTS = {
  csrs: 1000,
  concurrency: 16,
  keyTypes: ['p256'],
  // V8 is still compiling plat's request path for the first thousand or so certificates (~650
  // TurboFan compiles, ~3.5 s of its background threads' CPU): a run after 50 measured that
  // warm-up, not a running daemon (README, plat bench issue).
  warmup: 2000,
  controller: 'embedded',
  // Upstream's 20/30 would cap issuance at about 20 status writes a second; the benchmark measures
  // the server, so the controller's client limit is set far above what the server can take.
  apiQps: 5000,
  apiBurst: 10000,
  cfssl: 'cfssl',
  cfsslStored: true,
} as const satisfies Omit<IssueBenchOptions, 'log'>;

/** Every certificate of the run: the same signer policy on both sides. */
export const SIGNER = 'platform/apiserver-client';
export const USAGES = ['digital signature', 'client auth'] as const;
/** --cluster-signing-duration's default and the cfssl profile's expiry. */
export const LIFETIME_HOURS = 8760;
