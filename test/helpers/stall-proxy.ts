// A TCP proxy to a local server that can stall: while stalled it accepts connections and reads
// nothing, and forwards nothing either way on those it already carries, so the client's requests
// hang as they do when a server is partitioned away or frozen (not refused: that fails fast).
// resume() heals the partition: the connections that came meanwhile go through, the ones cut in
// the middle of a request are reset.
import net from 'node:net';

export interface StallProxy {
  readonly port: number;
  stall(): void;
  resume(): void;
  close(): Promise<void>;
}

export async function startStallProxy(target: { host: string; port: number }): Promise<StallProxy> {
  let stalled = false;
  const sockets = new Set<net.Socket>();
  let waiting: net.Socket[] = [];
  const bridge = (client: net.Socket) => {
    const upstream = net.connect(target.port, target.host);
    sockets.add(upstream);
    upstream.on('close', () => { sockets.delete(upstream); client.destroy(); });
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
    client.resume();
  };
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    if (stalled) { client.pause(); waiting.push(client); return; }
    bridge(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    stall: () => {
      stalled = true;
      for (const s of sockets) { s.unpipe(); s.pause(); }
    },
    resume: () => {
      stalled = false;
      const arrived = new Set(waiting);
      waiting = [];
      for (const s of sockets) if (!arrived.has(s)) s.destroy();
      for (const s of arrived) if (!s.destroyed) bridge(s);
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
