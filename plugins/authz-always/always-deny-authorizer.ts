// AlwaysDenyAuthorizer: authorization mode AlwaysDeny, with the reason text upstream uses. Taps
// authorize only when listed in --authorization-mode, at the stage of its position there.
//
// Note: upstream's AlwaysDeny answers NoOpinion (with that reason), so an authorizer after it in
// the mode list can still allow. Here AlwaysDeny is final: `AlwaysDeny,AlwaysAllow` denies.
// Fail-closed, and what the mode's name says; the reason still ends the 403. Its rules (rulesFor)
// are none, and complete, as upstream's alwaysDenyAuthorizer.RulesFor.
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import type { Decision } from '../../core/authz/attributes.js';
import { AUTHORIZATION_MODE_KIND, modeStage } from '../../core/authz/chain.js';
import { NO_RULES } from '../../core/authz/rules.js';

const PLUGIN_NAME = 'AlwaysDenyAuthorizer';
const MODE = 'AlwaysDeny';

const DENY: Decision = Object.freeze({ decision: 'deny', reason: 'Everything is forbidden.' });

export const AlwaysDenyAuthorizer: Plugin = {
  name: PLUGIN_NAME,
  apply(host: Host): void {
    host.capabilities.provide(AUTHORIZATION_MODE_KIND, MODE, PLUGIN_NAME);
    host.hooks.configure.tap(PLUGIN_NAME, (cfg) => {
      const stage = modeStage(host, cfg.flags, MODE);
      if (stage === undefined) return;
      host.hooks.authorize.tap({ name: PLUGIN_NAME, stage }, () => DENY);
      host.hooks.rulesFor.tap({ name: PLUGIN_NAME, stage }, () => NO_RULES);
    });
  },
};
