// AbacAuthorizer: authorization mode ABAC. Reads --authorization-policy-file once at start-up
// (a bad line stops start-up, naming file and line) and allows a request when any policy matches
// it; otherwise it has no opinion, with upstream's reason "No policy matched.", so ABAC never
// denies on its own. Its rules (rulesFor) are the policies that apply to the user (policy-rules.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Decision } from '../../core/authz/attributes.js';
import { AUTHORIZATION_MODE_KIND, modeStage } from '../../core/authz/chain.js';
import type { Host } from '../../core/host.js';
import { osErrorText } from '../../core/go-os-error.js';
import { StartupError, type Plugin } from '../../core/plugin.js';
import { parsePolicyFile, PolicyFileError } from './policy-file.js';
import { policyMatches } from './policy-match.js';
import { policyRules } from './policy-rules.js';

const PLUGIN_NAME = 'AbacAuthorizer';
const MODE = 'ABAC';
export const POLICY_FILE_FLAG = 'authorization-policy-file';

const ALLOW: Decision = Object.freeze({ decision: 'allow' });
const NO_MATCH: Decision = Object.freeze({ decision: 'noOpinion', reason: 'No policy matched.' });

export const AbacAuthorizer: Plugin = {
  name: PLUGIN_NAME,
  apply(host: Host): void {
    host.capabilities.provide(AUTHORIZATION_MODE_KIND, MODE, PLUGIN_NAME);
    host.hooks.flags.tap(PLUGIN_NAME, (flags) => flags.define({
      name: POLICY_FILE_FLAG, type: 'string', section: 'Authorization options', owner: PLUGIN_NAME,
      help: 'Line-by-line JSON policy for ABAC mode.',
    }));

    host.hooks.configure.tap(PLUGIN_NAME, (cfg) => {
      const stage = modeStage(host, cfg.flags, MODE);
      const flagValue = cfg.flags.get<string>(POLICY_FILE_FLAG);
      if (stage === undefined) {
        if (flagValue) throw new StartupError(`cannot specify --${POLICY_FILE_FLAG} without mode ${MODE}`, 2);
        return;
      }
      if (!flagValue) throw new StartupError(`authorization-mode ${MODE}'s authorization policy file not passed`, 2);
      const file = path.resolve(flagValue);
      // BuildGenericConfig's wrapper around what abac.NewFromFile returns.
      const invalid = (why: string) => new StartupError(`invalid authorization config: ${why}`);
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (err) {
        // os.Open fails alone; a directory opens, and its read fails inside policyLoadError.
        const os = osErrorText('open', flagValue, err);
        throw invalid((err as NodeJS.ErrnoException).code === 'EISDIR' ? `error reading policy file ${flagValue}: ${os}` : os);
      }
      let parsed;
      try {
        parsed = parsePolicyFile(text, flagValue);
      } catch (err) {
        if (err instanceof PolicyFileError) throw invalid(err.message);
        throw err;
      }
      const log = host.logger.child(PLUGIN_NAME);
      if (parsed.legacyLines > 0) log.warn(`Policy file ${file} contained unversioned rules. See plugins/authz-abac/README.md for the ABAC file format.`);
      log.info('ABAC policies loaded', { file, policies: parsed.policies.length });
      const { policies } = parsed;
      host.hooks.authorize.tap({ name: PLUGIN_NAME, stage }, (attrs) => {
        if (policies.some((p) => policyMatches(p, attrs))) return ALLOW;
        log.v(5).info('No policy matched.', { user: attrs.user.name, verb: attrs.verb, resource: attrs.resource, path: attrs.path });
        return NO_MATCH;
      });
      host.hooks.rulesFor.tap({ name: PLUGIN_NAME, stage }, (q) => policyRules(policies, q));
    });
  },
};
