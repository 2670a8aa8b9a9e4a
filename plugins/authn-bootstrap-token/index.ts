// BootstrapTokenAuthenticator: --enable-bootstrap-token-auth (k8s-behaviour §6, renamed). A bearer
// token `<id>.<secret>` is the user system:bootstrap:<id> when Secret `bootstrap-token-<id>` in
// plat-system, of type bootstrap.platform/token, holds that secret (constant-time comparison), is
// not expired, allows authentication and names only system:bootstrappers:* extra groups. The
// Secret is read from storage directly (no HTTP self-call). A token of this format that fails any
// check rejects the request with the reason (logged, never sent).
import { timingSafeEqual } from 'node:crypto';
import { bearerToken } from '../../core/authn/bearer.js';
import type { UserInfo } from '../../core/authn/user.js';
import type { Host } from '../../core/host.js';
import type { Plugin } from '../../core/plugin.js';
import { servedStore } from '../../core/registry/stores.js';

/** Bootstrap token Secrets live here (kube-system upstream). */
const SYSTEM_NAMESPACE = 'plat-system';

const PLUGIN_NAME = 'BootstrapTokenAuthenticator';
export const ENABLE_BOOTSTRAP_TOKEN_AUTH_FLAG = 'enable-bootstrap-token-auth';
export const BOOTSTRAP_TOKEN_SECRET_TYPE = 'bootstrap.platform/token';
export const BOOTSTRAPPERS_GROUP = 'system:bootstrappers';
const TOKEN = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
const EXTRA_GROUP = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;

const decode = (data: Record<string, string>, key: string): string | undefined =>
  typeof data[key] === 'string' ? Buffer.from(data[key], 'base64').toString('utf8') : undefined;

function equalConstantTime(a: string, b: string): boolean {
  const x = Buffer.from(a); const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Checks a token against its Secret: the user, or why not. */
export function checkBootstrapSecret(secret: Record<string, unknown> | undefined, id: string, tokenSecret: string, now: Date): UserInfo | string {
  if (!secret) return `secret bootstrap-token-${id} not found`;
  const meta = (secret['metadata'] ?? {}) as { deletionTimestamp?: string };
  if (meta.deletionTimestamp) return `secret bootstrap-token-${id} is being deleted`;
  if (secret['type'] !== BOOTSTRAP_TOKEN_SECRET_TYPE) return `secret bootstrap-token-${id} has the wrong type`;
  const data = secret['data'] as Record<string, string> | undefined;
  if (!data || Object.keys(data).length === 0) return `secret bootstrap-token-${id} has no data`;
  if (!equalConstantTime(decode(data, 'token-secret') ?? '', tokenSecret)) return 'token secret mismatch';
  if (decode(data, 'token-id') !== id) return 'token id mismatch';
  const expiration = decode(data, 'expiration');
  if (expiration !== undefined) {
    const t = Date.parse(expiration);
    if (Number.isNaN(t) || t <= now.getTime()) return 'token expired';
  }
  if (decode(data, 'usage-bootstrap-authentication') !== 'true') return 'token not usable for authentication';
  const extras = (decode(data, 'auth-extra-groups') ?? '').split(',').map((g) => g.trim()).filter(Boolean);
  const bad = extras.find((g) => !EXTRA_GROUP.test(g));
  if (bad !== undefined) return `invalid extra group ${JSON.stringify(bad)}`;
  const groups = [...new Set([BOOTSTRAPPERS_GROUP, ...extras])].sort();
  return { name: `system:bootstrap:${id}`, groups };
}

export const BootstrapTokenAuthenticator: Plugin = {
  name: PLUGIN_NAME,
  apply(host: Host): void {
    host.hooks.flags.tap(PLUGIN_NAME, (flags) => {
      flags.define({
        name: ENABLE_BOOTSTRAP_TOKEN_AUTH_FLAG, type: 'bool', default: false,
        help: 'Allow secrets of type `bootstrap.platform/token` in namespace `plat-system` for TLS bootstrap authentication.',
        section: 'Authentication options', owner: PLUGIN_NAME,
      });
    });
    host.hooks.configure.tap(PLUGIN_NAME, (cfg) => {
      if (!cfg.flags.get<boolean>(ENABLE_BOOTSTRAP_TOKEN_AUTH_FLAG)) return;
      host.hooks.authenticate.tapPromise({ name: PLUGIN_NAME, stage: 5 }, async (req) => {
        const token = bearerToken(req.headers);
        if (token === undefined) return undefined;
        const m = TOKEN.exec(token);
        if (!m) return undefined;
        const [, id, tokenSecret] = m as unknown as [string, string, string];
        const secrets = servedStore(host, '', 'v1', 'secrets');
        if (!secrets) { req.reject('secrets are not served'); return undefined; }
        const kv = await secrets.storage.get(secrets.keyFor(SYSTEM_NAMESPACE, `bootstrap-token-${id}`));
        const result = checkBootstrapSecret(kv?.value as Record<string, unknown> | undefined, id, tokenSecret, new Date());
        if (typeof result === 'string') { req.reject(`bootstrap token: ${result}`); return undefined; }
        return result;
      });
    });
  },
};
