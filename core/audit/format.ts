// An event's two texts: the JSON line a backend writes (apimachinery's encoder: kind and
// apiVersion first, then the fields, one line) and upstream's one-line legacy text (EventString).
import { goJsonEncode } from '../api/go-json-marshal.js';
import { goQuote } from '../go-quote.js';
import { AUDIT_API_VERSION, type AuditEvent } from './event.js';
import { rfc3339NanoOf } from '../api/go-time.js';

export function eventJson(ev: AuditEvent, apiVersion = AUDIT_API_VERSION): string {
  return goJsonEncode({ kind: 'Event', apiVersion, ...ev });
}

const quotedList = (l: readonly string[]) => l.map(goQuote).join(',');

/** EventString: its fields quoted with Go's %q, the groups each quoted and then the list quoted again. */
export function eventString(ev: AuditEvent): string {
  let username = '<none>';
  let groups = '<none>';
  if (ev.user.username) {
    username = ev.user.username;
    if (ev.user.groups?.length) groups = quotedList(ev.user.groups);
  }
  let asuser = '<self>';
  let asgroups = '<lookup>';
  if (ev.impersonatedUser) {
    asuser = ev.impersonatedUser.username ?? '';
    if (ev.impersonatedUser.groups) asgroups = quotedList(ev.impersonatedUser.groups);
  }
  const namespace = ev.objectRef?.namespace || '<none>';
  const response = ev.responseStatus ? String(ev.responseStatus.code ?? 0) : '<deferred>';
  const ip = ev.sourceIPs?.[0] ?? '<unknown>';
  const q = goQuote;
  return `${rfc3339NanoOf(ev.requestReceivedTimestamp)} AUDIT: id=${q(ev.auditID)} stage=${q(ev.stage)} ip=${q(ip)} method=${q(ev.verb)} user=${q(username)} groups=${q(groups)} as=${q(asuser)} asgroups=${q(asgroups)} user-agent=${q(ev.userAgent ?? '')} namespace=${q(namespace)} uri=${q(ev.requestURI)} response="${response}"`;
}
