// Every property suite over HTTP, against the reference server on a memory
// store: the adapter sees only the wire contract, and the server keeps its
// own (real) clock, exactly as a vendor's registry would.
import { after } from 'node:test';
import { httpTarget } from '../targets/http-target.ts';
import { startReferenceServer, type ReferenceServer } from './reference-server.ts';
import { describeSuitesAgainst } from './support.ts';

let server: ReferenceServer | undefined;
after(() => server?.close());

describeSuitesAgainst('the reference server over HTTP', {
  async open() {
    server = await startReferenceServer();
    return httpTarget({ url: server.url, key: server.key });
  },
  file: 'properties/test/http.property.test.ts',
});
