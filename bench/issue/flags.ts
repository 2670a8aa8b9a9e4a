// The flags of `plat bench issue`.
import type { Flags } from '../../core/flags/flag-set.js';
import { CONTROLLER_MODES, DEFAULTS, KEY_TYPES } from './options.js';

const S = 'plat bench issue';
const atLeast = (min: number, max: number) => (v: unknown) => ((v as number) >= min && (v as number) <= max ? undefined : `must be between ${min} and ${max}`);

export function issueFlags(f: Flags): void {
  f.define({ name: 'csrs', type: 'int', default: DEFAULTS.csrs, section: S, help: 'Certificates issued in the timed phase, per target and key type.', validate: atLeast(1, 1_000_000) });
  f.define({ name: 'concurrency', type: 'int', default: DEFAULTS.concurrency, section: S, help: 'Requests in flight at once (plat: CSRs between create and certificate; cfssl: sign requests).', validate: atLeast(1, 4096) });
  f.define({ name: 'key-type', type: 'strings', default: [...DEFAULTS.keyTypes], enum: Object.keys(KEY_TYPES), section: S,
    help: 'Key type of the CSRs and of the run\'s CA (a comma-separated list runs each in turn).' });
  f.define({ name: 'warmup', type: 'int', default: DEFAULTS.warmup, section: S, help: 'Certificates issued through each target before timing starts.', validate: atLeast(0, 100_000) });
  f.define({ name: 'controller', type: 'string', default: DEFAULTS.controller, enum: CONTROLLER_MODES, section: S,
    help: 'Where plat\'s signing controller runs: embedded (inside plat all), separate (in a plat controller-manager process, plat all running the other controllers).' });
  f.define({ name: 'plat-api-qps', type: 'float', default: DEFAULTS.apiQps, section: S,
    help: 'The signing controller\'s client-side API limit (upstream\'s default 20 would cap issuance near 20/s).', validate: (v) => ((v as number) > 0 ? undefined : 'must be more than 0') });
  f.define({ name: 'plat-api-burst', type: 'int', default: DEFAULTS.apiBurst, section: S, help: 'The signing controller\'s client-side burst.', validate: atLeast(1, 1_000_000) });
  f.define({ name: 'stages', type: 'bool', default: false, section: S,
    help: 'Also measure the three writes of a certificate (creates, approvals, the signing controller\'s status writes) one kind at a time against a second plat all without a signing controller: CPU per request of each, and what is left of the full run for the signing controller\'s side.' });
  f.define({ name: 'cfssl', type: 'string', default: DEFAULTS.cfssl, section: S, help: 'The cfssl binary to compare with ("" skips it).' });
  f.define({ name: 'cfssl-stored', type: 'bool', default: DEFAULTS.cfsslStored, section: S,
    help: 'Also measure cfssl serve with what plat has besides signing: HTTPS, a client certificate required and its certificate database (sqlite3, which must be installed to create it).' });
  f.define({ name: 'cpu-prof', type: 'string', default: '', section: S, help: 'Run plat\'s processes under node --cpu-prof and write their .cpuprofile files to this directory.' });
  f.define({ name: 'json', type: 'string', default: '', section: S, help: 'Write the results as JSON here.' });
  f.define({ name: 'svg', type: 'string', default: '', section: S, help: 'Write an SVG bar chart here.' });
}
