// Go's words for a request that got no answer (net/http's url.Error around net.OpError), for the
// failures Node reports by code: over real sockets where the sandbox can make them (a server that
// resets the connection, one that closes it before answering), by the mapping alone for the
// dial failures a loopback cannot produce (no route, no network, a dial that times out).
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { goClientErrorText, goTransportReason } from '../../core/client/go-url-error.js';
import { RestClient } from '../../core/client/rest-client.js';

const errno = (code: string, syscall?: string, message = `${syscall ?? ''} ${code}`) =>
  Object.assign(new Error(message), { code, ...(syscall ? { syscall } : {}) }) as NodeJS.ErrnoException;

describe('goTransportReason', () => {
  const url = new URL('https://10.0.0.1:6443/apis');
  it('dial failures name the address dialled', () => {
    assert.equal(goTransportReason(errno('EHOSTUNREACH', 'connect'), url), 'dial tcp 10.0.0.1:6443: connect: no route to host');
    assert.equal(goTransportReason(errno('ENETUNREACH', 'connect'), url), 'dial tcp 10.0.0.1:6443: connect: network is unreachable');
    assert.equal(goTransportReason(errno('ETIMEDOUT', 'connect'), url), 'dial tcp 10.0.0.1:6443: i/o timeout');
  });

  it('a connection that broke once made names its two ends when they are known', () => {
    const ends = { localAddr: '10.0.0.9:51234', remoteAddr: '10.0.0.1:6443' };
    assert.equal(goTransportReason(Object.assign(errno('EPIPE', 'write'), ends), url), 'write tcp 10.0.0.9:51234->10.0.0.1:6443: write: broken pipe');
    assert.equal(goTransportReason(Object.assign(errno('ETIMEDOUT', 'read'), ends), url), 'read tcp 10.0.0.9:51234->10.0.0.1:6443: read: connection timed out');
    assert.equal(goTransportReason(errno('ECONNRESET', 'read'), url), 'read: connection reset by peer');
  });
});

describe('a request whose connection fails after it was made', () => {
  let mode: 'reset' | 'close' = 'reset';
  const server = net.createServer((s) => {
    // Once the request has arrived: an RST, or an orderly close without an answer.
    s.once('data', () => { if (mode === 'reset') s.resetAndDestroy(); else s.end(); });
  });
  let port = 0;
  let client: RestClient;
  before(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as net.AddressInfo).port;
    client = new RestClient({ server: new URL(`http://127.0.0.1:${port}`) });
  });
  after(async () => { client.close(); await new Promise((r) => server.close(r)); });

  const failure = (): Promise<string> => client.request('POST', '/apis/x', { body: {} }).then(() => 'answered', goClientErrorText);

  it('reset: read tcp <local>-><remote>: read: connection reset by peer', async () => {
    mode = 'reset';
    const text = await failure();
    const expected = new RegExp(`^Post "http://127\\.0\\.0\\.1:${port}/apis/x": read tcp 127\\.0\\.0\\.1:\\d+->127\\.0\\.0\\.1:${port}: read: connection reset by peer$`);
    assert.match(text, expected);
  });

  it('closed before an answer: EOF', async () => {
    mode = 'close';
    assert.equal(await failure(), `Post "http://127.0.0.1:${port}/apis/x": EOF`);
  });
});

describe('goClientErrorText', () => {
  // It runs inside the catch blocks of the delegating authenticator and authorizers: a throw of its
  // own would replace the error being reported.
  it('does not throw on a URL that does not parse, nor on a thrown value that is no Error', () => {
    const badUrl = Object.assign(new Error('connect ECONNREFUSED'), { url: 'not a url', method: 'POST', code: 'ECONNREFUSED' });
    assert.equal(goClientErrorText(badUrl), 'Post "not a url": connect ECONNREFUSED');
    assert.equal(goClientErrorText({ url: 'https://10.0.0.1:6443/x', method: 'GET', code: 'ECONNRESET' }), 'Get "https://10.0.0.1:6443/x": read: connection reset by peer');
    assert.equal(goClientErrorText(Object.create(null)), '[Object: null prototype] {}');
    assert.equal(goClientErrorText(null), 'null');
    assert.equal(goClientErrorText(new Error('plain')), 'plain');
  });
});
