// AuditWebhookPlugin: upstream's audit webhook backend. With --audit-webhook-config-file (and an
// --audit-policy-file, without which nothing is audited and the file is not read, as upstream) it
// reads the kubeconfig-format file as the token and authorization webhooks do (core/client) and
// taps `hooks.audit` with a backend POSTing EventLists to its server, in the mode
// --audit-webhook-mode names; shutdown sends what a batch still holds. Beside the log backend,
// each event goes to both (upstream's audit.Union).
import { tapAuditBackend } from '../../core/audit/backend.js';
import { backendSettings, validateBackendOptions } from '../../core/audit/backend-options.js';
import { KubeconfigError, loadKubeconfig } from '../../core/client/kubeconfig.js';
import { auditErrorCounter } from '../../core/metrics/apiserver.js';
import type { Host } from '../../core/host.js';
import { locatedError } from '../../core/located-problems.js';
import { VALIDATION_STAGES } from '../../core/options-validation.js';
import { StartupError, type Plugin } from '../../core/plugin.js';
import { auditWebhookFlags, CONFIG_FILE_FLAG, INITIAL_BACKOFF_FLAG } from './flags.js';
import { PLUGIN, WebhookBackend } from './webhook-backend.js';

const PLUGIN_NAME = 'AuditWebhookPlugin';

export const AuditWebhookPlugin: Plugin = {
  name: PLUGIN_NAME,
  apply(host: Host): void {
    host.hooks.flags.tap(PLUGIN_NAME, (flags) => {
      for (const f of auditWebhookFlags) flags.define({ ...f, owner: PLUGIN_NAME });
    });
    // AuditWebhookOptions.Validate, after the log backend's as upstream's AuditOptions.Validate.
    host.hooks.configure.tap({ name: PLUGIN_NAME, stage: VALIDATION_STAGES.serving }, ({ flags }) => {
      if (flags.get<string>(CONFIG_FILE_FLAG) === '') return;
      const problem = locatedError(validateBackendOptions(flags, PLUGIN));
      if (problem) throw problem;
    });
    host.hooks.configure.tap(PLUGIN_NAME, ({ flags }) => {
      const file = flags.get<string>(CONFIG_FILE_FLAG);
      if (file === '') return;
      const log = host.logger.child('audit');
      if (!flags.get<string>('audit-policy-file')) {
        log.v(2).info('No audit policy file provided, no events will be recorded for webhook backend');
        return;
      }
      const s = backendSettings(flags, PLUGIN);
      let backend: WebhookBackend;
      try {
        backend = new WebhookBackend({ connection: loadKubeconfig(file), apiVersion: s.apiVersion, initialBackoffMs: flags.get<number>(INITIAL_BACKOFF_FLAG), logger: log, count: auditErrorCounter(host) });
      } catch (err) {
        const why = err instanceof KubeconfigError ? err.message : `TLS settings: ${(err as Error).message}`;
        throw new StartupError(`initializing audit webhook: ${why}`);
      }
      tapAuditBackend(host, PLUGIN_NAME, backend, s, log);
    });
  },
};
