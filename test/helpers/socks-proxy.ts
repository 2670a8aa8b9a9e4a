// A small real SOCKS5 proxy (RFC 1928, CONNECT only) on 127.0.0.1: no authentication, or
// username/password (RFC 1929) when it is given credentials. It records what each client offered
// and asked for, and can instead answer every CONNECT with a failure reply or never answer at all.
import net, { type AddressInfo } from 'node:net';

export interface SocksRequest {
  /** The authentication methods the client offered. */
  methods: number[];
  /** RFC 1929's username and password, when the client sent them. */
  username?: string;
  password?: string;
  /** The address type of the CONNECT: 1 IPv4, 3 domain name, 4 IPv6. */
  addressType?: number;
  host?: string;
  port?: number;
}

export interface SocksProxyOptions {
  /** Requires username/password with exactly these. */
  credentials?: { username: string; password: string };
  /** Answers every CONNECT with this reply code instead of connecting. */
  failWith?: number;
  /** Reads the greeting and never answers. */
  silent?: boolean;
}

export interface SocksProxy { port: number; url: string; seen: SocksRequest[]; close(): Promise<void> }

/** Reads exactly n bytes (or undefined when the client went away first). */
function reader(socket: net.Socket): (n: number) => Promise<Buffer | undefined> {
  let buffered = Buffer.alloc(0);
  let ended = false;
  let wake: (() => void) | undefined;
  socket.on('data', (d: Buffer) => { buffered = Buffer.concat([buffered, d]); wake?.(); });
  socket.on('close', () => { ended = true; wake?.(); });
  return async (n) => {
    while (buffered.length < n) {
      if (ended) return undefined;
      await new Promise<void>((r) => { wake = r; });
      wake = undefined;
    }
    const out = buffered.subarray(0, n);
    buffered = buffered.subarray(n);
    return out;
  };
}

async function serve(client: net.Socket, o: SocksProxyOptions, seen: SocksRequest[], held: Set<net.Socket>): Promise<void> {
  const read = reader(client);
  const greeting = await read(2);
  if (!greeting || greeting[0] !== 5) return void client.destroy();
  const methods = await read(greeting[1]!);
  if (!methods) return;
  const request: SocksRequest = { methods: [...methods] };
  seen.push(request);
  if (o.silent) { held.add(client); return; }
  const wanted = o.credentials ? 0x02 : 0x00;
  if (!methods.includes(wanted)) { client.end(Buffer.from([5, 0xff])); return; }
  client.write(Buffer.from([5, wanted]));
  if (o.credentials) {
    const head = await read(2);
    const user = head && await read(head[1]!);
    const passLength = user && await read(1);
    const pass = passLength && await read(passLength[0]!);
    if (!pass) return;
    request.username = user.toString();
    request.password = pass.toString();
    const ok = request.username === o.credentials.username && request.password === o.credentials.password;
    if (!ok) { client.end(Buffer.from([1, 1])); return; }
    client.write(Buffer.from([1, 0]));
  }
  const head = await read(4);
  if (!head) return;
  request.addressType = head[3]!;
  if (head[3] === 1) request.host = [...(await read(4))!].join('.');
  else if (head[3] === 3) request.host = (await read((await read(1))![0]!))!.toString();
  else request.host = (await read(16))!.toString('hex').match(/.{4}/g)!.join(':');
  request.port = (await read(2))!.readUInt16BE();
  const reply = (code: number) => Buffer.from([5, code, 0, 1, 0, 0, 0, 0, 0, 0]);
  if (o.failWith !== undefined) { client.end(reply(o.failWith)); return; }
  const upstream = net.connect({ host: request.host!, port: request.port });
  upstream.once('error', () => client.end(reply(5)));
  upstream.once('connect', () => {
    client.write(reply(0));
    client.removeAllListeners('data');
    upstream.pipe(client);
    client.pipe(upstream);
    upstream.on('error', () => client.destroy());
  });
  // Either end going away takes the other with it, so no half of a tunnel outlives the test.
  upstream.once('close', () => client.destroy());
  client.once('close', () => upstream.destroy());
}

export async function socksProxy(o: SocksProxyOptions = {}): Promise<SocksProxy> {
  const seen: SocksRequest[] = [];
  const held = new Set<net.Socket>();
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    void serve(client, o, seen, held);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    port, seen,
    url: o.credentials
      ? `socks5://${encodeURIComponent(o.credentials.username)}:${encodeURIComponent(o.credentials.password)}@127.0.0.1:${port}`
      : `socks5://127.0.0.1:${port}`,
    close: () => new Promise((r) => { for (const s of sockets) s.destroy(); server.close(() => r()); }),
  };
}
