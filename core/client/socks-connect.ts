// The SOCKS5 CONNECT of Go's http.Transport for a `socks5://` proxy (net/http's bundle of
// golang.org/x/net/internal/socks): no-auth, or username/password (RFC 1929) when the proxy URL
// carries user info; the target's name goes to the proxy unresolved, an IP address as its bytes.
// Go gives the handshake no deadline of its own (the dial context is detached from the request's),
// so neither does this: the request's own timeout ends a proxy that never answers.
import net from 'node:net';
import { formatIp, parseIp } from '../crypto/general-names.js';

const VERSION = 5;
const AUTH_NONE = 0x00;
const AUTH_PASSWORD = 0x02;
const AUTH_NO_ACCEPTABLE = 0xff;
const PASSWORD_VERSION = 1;

/** socksReply.String(). */
const REPLIES = [
  'succeeded', 'general SOCKS server failure', 'connection not allowed by ruleset', 'network unreachable',
  'host unreachable', 'connection refused', 'TTL expired', 'command not supported', 'address type not supported',
];
const replyText = (code: number): string => REPLIES[code] ?? `unknown code: ${code}`;

/** The proxy URL's user info, percent-decoded to bytes (url.Userinfo's Username and Password). */
export interface SocksCredentials { readonly username: Buffer; readonly password: Buffer }

/** socksAddr.String(): an IP as net.IP prints it, a name as given. */
function hostPort(host: string, port: number): string {
  const ip = parseIp(host);
  const shown = ip ? formatIp(ip) : host;
  return shown.includes(':') ? `[${shown}]:${port}` : `${shown}:${port}`;
}

/** io.ReadFull over a socket still in its handshake: EOF before any byte, `unexpected EOF` within. */
class HandshakeReader {
  #buffered = Buffer.alloc(0);
  #eof = false;
  #error: Error | undefined;
  #waiting: (() => void) | undefined;
  readonly #onData = (chunk: Buffer) => { this.#buffered = Buffer.concat([this.#buffered, chunk]); this.#wake(); };
  readonly #onEnd = () => { this.#eof = true; this.#wake(); };
  readonly #onError = (e: Error) => { this.#error ??= e; this.#wake(); };

  constructor(private readonly socket: net.Socket) {
    socket.on('data', this.#onData);
    socket.on('end', this.#onEnd);
    socket.on('close', this.#onEnd);
    socket.on('error', this.#onError);
  }

  #wake(): void { const w = this.#waiting; this.#waiting = undefined; w?.(); }

  async read(n: number): Promise<Buffer> {
    while (this.#buffered.length < n) {
      if (this.#error) throw this.#error;
      if (this.#eof) throw new Error(this.#buffered.length === 0 ? 'EOF' : 'unexpected EOF');
      await new Promise<void>((r) => { this.#waiting = r; });
    }
    const out = this.#buffered.subarray(0, n);
    this.#buffered = this.#buffered.subarray(n);
    return out;
  }

  /** Hands the socket on, with whatever the proxy sent past its reply put back. */
  release(): void {
    this.socket.pause();
    this.socket.off('data', this.#onData);
    this.socket.off('end', this.#onEnd);
    this.socket.off('close', this.#onEnd);
    this.socket.off('error', this.#onError);
    if (this.#buffered.length > 0) this.socket.unshift(this.#buffered);
  }
}

/** socksDialer.connect's exchange; its errors are the bare texts DialWithConn wraps. */
async function handshake(socket: net.Socket, reader: HandshakeReader, host: string, port: number, credentials: SocksCredentials | undefined): Promise<void> {
  socket.write(Buffer.from(credentials ? [VERSION, 2, AUTH_NONE, AUTH_PASSWORD] : [VERSION, 1, AUTH_NONE]));
  const [version, method] = await reader.read(2);
  if (version !== VERSION) throw new Error(`unexpected protocol version ${version}`);
  if (method === AUTH_NO_ACCEPTABLE) throw new Error('no acceptable authentication methods');
  // Without credentials Go sets no Authenticate: whatever method the proxy picks, it goes on.
  if (credentials && method !== AUTH_NONE) {
    if (method !== AUTH_PASSWORD) throw new Error(`unsupported authentication method ${method}`);
    const { username: user, password } = credentials;
    // An empty password is sent as such (Go checks the username only for emptiness).
    if (user.length === 0 || user.length > 255 || password.length > 255) throw new Error('invalid username/password');
    socket.write(Buffer.concat([Buffer.from([PASSWORD_VERSION, user.length]), user, Buffer.from([password.length]), password]));
    const [authVersion, status] = await reader.read(2);
    if (authVersion !== PASSWORD_VERSION) throw new Error('invalid username/password version');
    if (status !== 0) throw new Error('username/password authentication failed');
  }

  const ip = parseIp(host);
  const v4 = ip && (ip.length === 4 ? ip : isV4Mapped(ip) ? ip.subarray(12) : undefined);
  let address: Buffer;
  if (v4) address = Buffer.from([0x01, ...v4]);
  else if (ip) address = Buffer.from([0x04, ...ip]);
  else {
    const name = Buffer.from(host);
    if (name.length > 255) throw new Error('FQDN too long');
    address = Buffer.concat([Buffer.from([0x03, name.length]), name]);
  }
  socket.write(Buffer.concat([Buffer.from([VERSION, 0x01, 0]), address, Buffer.from([port >> 8, port & 0xff])]));

  const [replyVersion, reply, reserved, boundType] = await reader.read(4);
  if (replyVersion !== VERSION) throw new Error(`unexpected protocol version ${replyVersion}`);
  if (reply !== 0) throw new Error(`unknown error ${replyText(reply!)}`);
  if (reserved !== 0) throw new Error('non-zero reserved field');
  let boundLength: number;
  if (boundType === 0x01) boundLength = 4;
  else if (boundType === 0x04) boundLength = 16;
  else if (boundType === 0x03) boundLength = (await reader.read(1))[0]!;
  else throw new Error(`unknown address type ${boundType}`);
  await reader.read(boundLength + 2);
}

const isV4Mapped = (ip: Uint8Array): boolean => ip.length === 16 && ip.subarray(0, 10).every((b) => b === 0) && ip[10] === 0xff && ip[11] === 0xff;

/**
 * Asks the SOCKS5 proxy at the other end of `socket` (connected) for a connection to host:port;
 * resolves with the socket carrying it. A failure is Go's net.OpError text,
 * `socks connect tcp <proxy>-><target>: <reason>`, with the socket destroyed.
 */
export async function socksConnect(socket: net.Socket, host: string, port: number, credentials?: SocksCredentials): Promise<net.Socket> {
  // conn.RemoteAddr(): the address the proxy was reached at.
  const proxy = hostPort(socket.remoteAddress ?? '', socket.remotePort ?? 0);
  const reader = new HandshakeReader(socket);
  try {
    await handshake(socket, reader, host, port, credentials);
  } catch (e) {
    socket.destroy();
    // The cause's code stays: a reset is still a reset to the retry rule (IsConnectionReset).
    const code = (e as NodeJS.ErrnoException).code;
    throw Object.assign(new Error(`socks connect tcp ${proxy}->${hostPort(host, port)}: ${(e as Error).message}`, { cause: e }), code ? { code } : {});
  } finally {
    reader.release();
  }
  return socket;
}

/** url.unescape of user info to its bytes (Go keeps bytes that are no UTF-8 as they are). */
function unescapeBytes(text: string): Buffer {
  const out: number[] = [];
  const raw = Buffer.from(text);
  for (let i = 0; i < raw.length; i++) {
    const hex = raw[i] === 0x25 ? raw.subarray(i + 1, i + 3).toString('latin1') : '';
    if (/^[0-9a-fA-F]{2}$/.test(hex)) { out.push(parseInt(hex, 16)); i += 2; } else out.push(raw[i]!);
  }
  return Buffer.from(out);
}

/**
 * Go's socks5 case of dialConn: TCP to the proxy (port 1080 unless named), then the CONNECT;
 * the user info, when the URL has any, offered as username/password. `signal` ends a handshake
 * still waiting when the client is closed.
 */
export function socksTunnel(proxy: URL, host: string, port: number, signal: AbortSignal): Promise<net.Socket> {
  const socket = net.connect({ host: proxy.hostname.replace(/^\[|\]$/g, ''), port: Number(proxy.port || 1080) });
  const abort = () => socket.destroy();
  signal.addEventListener('abort', abort, { once: true });
  const credentials = proxy.username || proxy.password
    ? { username: unescapeBytes(proxy.username), password: unescapeBytes(proxy.password) }
    : undefined;
  return new Promise<net.Socket>((resolve, reject) => {
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.off('error', reject);
      socksConnect(socket, host, port, credentials).then(resolve, reject);
    });
  }).finally(() => signal.removeEventListener('abort', abort));
}
