// AlwaysAllowAuthorizer: authorization mode AlwaysAllow. Taps authorize only when the mode is
// listed in --authorization-mode (declared by the apiserver plugin), at the stage of its position
// there, so the chain runs in flag order. The mode name is provided unconditionally so start-up
// can refuse a mode that no loaded plugin implements. Its rules (rulesFor) are everything: `*` on
// every resource and path, as upstream's alwaysAllowAuthorizer.RulesFor.
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import type { Decision } from '../../core/authz/attributes.js';
import { AUTHORIZATION_MODE_KIND, modeStage } from '../../core/authz/chain.js';
import { ALL_RULES } from '../../core/authz/rules.js';

const PLUGIN_NAME = 'AlwaysAllowAuthorizer';
const MODE = 'AlwaysAllow';

const ALLOW: Decision = Object.freeze({ decision: 'allow' });

export const AlwaysAllowAuthorizer: Plugin = {
  name: PLUGIN_NAME,
  apply(host: Host): void {
    host.capabilities.provide(AUTHORIZATION_MODE_KIND, MODE, PLUGIN_NAME);
    host.hooks.configure.tap(PLUGIN_NAME, (cfg) => {
      const stage = modeStage(host, cfg.flags, MODE);
      if (stage === undefined) return;
      host.hooks.authorize.tap({ name: PLUGIN_NAME, stage }, () => ALLOW);
      host.hooks.rulesFor.tap({ name: PLUGIN_NAME, stage }, () => ALL_RULES);
    });
  },
};
