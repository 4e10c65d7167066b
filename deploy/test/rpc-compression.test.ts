import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { create } from '@bufbuild/protobuf';
import { createClient, type Transport } from '@connectrpc/connect';
import { connectNodeAdapter, createConnectTransport } from '@connectrpc/connect-node';
import { ListSourcesResponseSchema, SourceService } from '@vat/gen/vat/calculation/v1/calculation_service_pb';
import { loadConfig } from '@vat/platform/config';
import { networkTransports } from '../src/compose';

/**
 * The distributed mode's calls between processes go uncompressed: the caller does not offer gzip, so a
 * service does not spend CPU compressing an answer that only crosses the deployment's own network.
 */
describe('RPC between processes: no response compression', () => {
  const seen: { acceptEncoding: string | undefined; contentEncoding: string | undefined }[] = [];
  let server: http2.Http2Server;
  const sessions = new Set<http2.ServerHttp2Session>();
  let url = '';

  beforeAll(async () => {
    // An answer well above Connect's 1 KB compression threshold (the calculation's answers are).
    const items = Array.from({ length: 40 }, (_, i) => ({ sourceKey: `source-${i}`, displayName: 'x'.repeat(100), channelType: 'owned_store' }));
    const handler = connectNodeAdapter({
      routes: (router) => router.service(SourceService, { listSources: () => create(ListSourcesResponseSchema, { items, activeCount: 40, maxProfiles: 50, storedCount: 40, maxStoredProfiles: 200 }) } as never),
    });
    server = http2.createServer((req, res) => {
      res.on('finish', () => seen.push({ acceptEncoding: req.headers['accept-encoding'] as string | undefined, contentEncoding: res.getHeader('content-encoding') as string | undefined }));
      handler(req, res);
    });
    server.on('session', (s) => {
      sessions.add(s);
      s.on('close', () => sessions.delete(s));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const s of sessions) s.destroy();
    await new Promise((r) => server.close(r));
  });

  const call = async (transport: Transport) => {
    seen.length = 0;
    const r = await createClient(SourceService, transport).listSources({});
    expect(r.items).toHaveLength(40);
    expect(seen).toHaveLength(1);
    return seen[0]!;
  };

  it('a default Connect client would get a gzipped answer from the same server (the check can fail)', async () => {
    const r = await call(createConnectTransport({ baseUrl: url, httpVersion: '2' }));
    expect(r.acceptEncoding).toContain('gzip');
    expect(r.contentEncoding).toBe('gzip');
  });

  it("the distributed mode's transport offers no compression and gets the answer as it is", async () => {
    const config = loadConfig({ CALCULATION_URL: url, INTERNAL_TOKEN: 'rpc-compression-test-token' });
    const r = await call(networkTransports(config)('calculation'));
    expect(r.acceptEncoding).toBeUndefined();
    expect(r.contentEncoding).toBeUndefined();
  });
});
