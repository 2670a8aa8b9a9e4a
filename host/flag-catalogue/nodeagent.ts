// Every option of the node agent as spec 03 lists them ("Options"), so that --help and the accepted
// flags match the spec: the rows of plugins/nodeagent/flag-specs.ts, which NodeAgentPlugin defines,
// with the ones plat refuses marked unsupported (listed, and refused at start-up if given).
// `--version` and `-h, --help` belong to the host and are not listed here.
import type { FlagSpec } from '../../core/flags/types.js';
import { NODEAGENT_FLAGS, NODEAGENT_FLAG_SECTIONS } from '../../plugins/nodeagent/index.js';

export { NODEAGENT_FLAG_SECTIONS };

export const nodeAgentFlagCatalogue: readonly FlagSpec[] = Object.freeze(
  NODEAGENT_FLAGS.map((f) => Object.freeze(f.refuse ? { ...f.spec, unsupported: f.refuse } : f.spec)),
);
