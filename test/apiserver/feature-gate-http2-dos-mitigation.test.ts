// Feature gate UnauthenticatedHTTP2DOSMitigation (beta, on in 1.32), over real HTTP/2 on TLS: a
// connection whose request came from the anonymous user, or was answered 401, gets a GOAWAY after
// that request, as upstream's WithAuthentication and Unauthorized (`Connection: close`, which Go's
// HTTP/2 server turns into a GOAWAY); an authenticated client keeps its connection. With the gate
// off, anonymous connections stay open too.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type http2 from 'node:http2';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connectH2, goawayReceived as goaway, h2Fetch } from '../helpers/http2-client.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

const pki = (plat: RunningPlat) => {
  const read = (f: string) => readFileSync(path.join(plat.dataDir, 'pki', f), 'utf8');
  return { ca: read('ca.crt'), cert: read('admin.crt'), key: read('admin.key') };
};

for (const [what, args, mitigated] of [['on by default', ['--anonymous-auth=true', '--authorization-mode=RBAC'], true], ['set off', ['--anonymous-auth=true', '--authorization-mode=RBAC', '--feature-gates=UnauthenticatedHTTP2DOSMitigation=false'], false]] as const) {
  describe(`UnauthenticatedHTTP2DOSMitigation ${what}`, () => {
    let plat: RunningPlat;
    const sessions: http2.ClientHttp2Session[] = [];
    const open = async (tls: { ca: string; cert?: string; key?: string }) => {
      const s = await connectH2(plat.url, tls);
      sessions.push(s);
      return s;
    };
    before(async () => { plat = await startInProcess({ args: [...args] }); });
    after(async () => {
      for (const s of sessions) s.destroy();
      await plat?.stop();
    });

    const cases: Array<[string, Record<string, string>, number]> = [
      ['an anonymous request', {}, 200],
      ['a request answered 401 (a token nobody knows)', { authorization: 'Bearer not-a-known-token' }, 401],
    ];
    for (const [request, headers, status] of cases) {
      it(`${mitigated ? 'ends' : 'keeps'} the connection after ${request}`, async () => {
        const session = await open({ ca: pki(plat).ca });
        const gone = mitigated ? goaway(session) : undefined;
        const first = await h2Fetch(session, 'GET', '/livez', headers);
        assert.equal(first.status, status, first.body.toString());
        if (gone) {
          await gone;
          await assert.rejects(h2Fetch(session, 'GET', '/livez', headers));
        } else {
          assert.equal((await h2Fetch(session, 'GET', '/livez', headers)).status, status);
        }
      });
    }

    it('keeps an authenticated client\'s connection', async () => {
      const session = await open(pki(plat));
      for (let i = 0; i < 3; i++) assert.equal((await h2Fetch(session, 'GET', '/api/v1/nodes')).status, 200);
      assert.equal(session.closed, false);
    });
  });
}
