// Who a kubeconfig user asks to act as: its own `as`, `as-uid`, `as-groups` and `as-user-extra`,
// with kubectl's --as, --as-uid and --as-group laid over them as clientcmd's getAuthInfo lays its
// overrides (a value given replaces the file's, a list replaces the whole list).

/** kubectl's impersonation flags; empty values are not given. */
export interface ImpersonationOverrides {
  readonly user?: string | undefined;
  readonly uid?: string | undefined;
  readonly groups?: readonly string[] | undefined;
}

export interface Impersonation {
  readonly user: string;
  readonly uid: string;
  readonly groups: readonly string[];
  readonly extra: Readonly<Record<string, readonly string[]>>;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const texts = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

export function mergedImpersonation(user: Readonly<Record<string, unknown>>, o: ImpersonationOverrides = {}): Impersonation {
  const extra = user['as-user-extra'];
  return {
    user: o.user || text(user['as']),
    uid: o.uid || text(user['as-uid']),
    groups: o.groups?.length ? [...o.groups] : texts(user['as-groups']),
    extra: typeof extra === 'object' && extra !== null && !Array.isArray(extra) ? extra as Record<string, string[]> : {},
  };
}

/**
 * validateAuthInfo's last check: a uid, groups or extras only qualify an impersonated user, so
 * without one the configuration is unusable and nothing is sent (the server would refuse it with
 * a 500). `authInfoName` is the user entry's name as clientcmd has it, possibly empty.
 */
export function impersonationProblem(authInfoName: string, i: Impersonation): string | undefined {
  if ((i.uid !== '' || i.groups.length > 0 || Object.keys(i.extra).length > 0) && i.user === '') {
    return `requesting uid, groups or user-extra for ${authInfoName} without impersonating a user`;
  }
  return undefined;
}
