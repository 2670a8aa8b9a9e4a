// Go's net/http stripPassword: a URL with a password is said as `user:***@host` in the errors of
// Go's client (url.Error), so a credential in a configured URL never reaches a log line.
//
// It works on the text as written (a configured URL, a Location header), not on a parsed URL, so
// that everything else is printed as given. As Go's url.Parse, the user information ends at the
// last '@' before the path, and the user name is printed unescaped.

const USERINFO = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/?#]*)@/;

/** `url` with the password of its user information, if it has one, replaced by `***`. */
export function stripPassword(url: string): string {
  const m = USERINFO.exec(url);
  if (!m) return url;
  const userinfo = m[2]!;
  const colon = userinfo.indexOf(':');
  if (colon < 0) return url;
  const user = userinfo.slice(0, colon);
  let name = user;
  try {
    name = decodeURIComponent(user);
  } catch {
    // A malformed escape Go would have refused to parse: keep it as written.
  }
  return `${m[1]}${name}:***@${url.slice(m[0].length)}`;
}

/** What plat prints in place of a credential in its logs (upstream's kubelet mask for header values). */
export const MASKED = '<masked>';

/**
 * plat's stricter mask for URLs it logs as configuration (the FLAG lines, the node agent's
 * effective configuration): user and password both, as `<masked>@` (URL-escaped). Not a URL: as is.
 */
export function maskUrlUserinfo(text: string): string {
  let u: URL;
  try { u = new URL(text); } catch { return text; }
  if (!u.username && !u.password) return text;
  u.username = MASKED;
  u.password = '';
  return u.toString();
}
