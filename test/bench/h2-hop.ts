/**
 * One unary Connect call between two processes over HTTP/2, 64 in flight: calls/s and the CPU per call
 * of each side (process.cpuUsage). Not a test: `node_modules/node/bin/node --import tsx test/bench/h2-hop.ts`
 * with H2_SERVER=deployed (rpcServer: the fast path in front of Connect's Fastify plugin), fastify (the
 * plugin alone), adapter (connect-node's adapter on node:http2) or raw (node:http2, no Connect), and
 * H2_CLIENT=lean (createH2Transport), connect (connect-node's transport) or raw; H2_MS, H2_CONC.
 */
import { fork } from 'node:child_process';
import http2 from 'node:http2';
import { create } from '@bufbuild/protobuf';
import { createClient } from '@connectrpc/connect';
import { createConnectTransport, connectNodeAdapter } from '@connectrpc/connect-node';
import { fastifyConnectPlugin } from '@connectrpc/connect-fastify';
import Fastify from 'fastify';
import { createH2Transport } from '@vat/platform/h2-transport';
import { CalculationService, GetTransactionResponseSchema } from '@vat/gen/vat/calculation/v1/calculation_service_pb';

const kind = process.env.H2_SERVER ?? 'deployed';
const routes = (router: any) => router.service(CalculationService, {
  async getTransaction() { return create(GetTransactionResponseSchema, {}); },
} as any);

async function server() {
  let port: number;
  if (kind === 'deployed') {
    const { rpcServer } = await import('@vat/deploy/compose');
    const app = await rpcServer(routes, []);
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as any).port;
  } else if (kind === 'fastify') {
    const app = Fastify({ http2: true, logger: false });
    await app.register(fastifyConnectPlugin, { routes });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as any).port;
  } else if (kind === 'adapter') {
    const s = http2.createServer(connectNodeAdapter({ routes }));
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    port = (s.address() as any).port;
  } else {
    const s = http2.createServer((req, res) => {
      req.on('data', () => {});
      req.on('end', () => { res.writeHead(200, { 'content-type': 'application/proto' }); res.end(Buffer.alloc(0)); });
    });
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
    port = (s.address() as any).port;
  }
  process.send!({ port });
  process.on('message', (m: any) => { if (m === 'cpu') process.send!({ cpu: process.cpuUsage() }); });
}

async function client() {
  const child = fork(process.argv[1]!, ['server'], { execArgv: process.execArgv, env: process.env });
  const port: number = await new Promise((r) => child.once('message', (m: any) => r(m.port)));
  const cpuOf = () => new Promise<NodeJS.CpuUsage>((r) => { child.once('message', (m: any) => r(m.cpu)); child.send('cpu'); });
  let call: () => Promise<unknown>;
  if (process.env.H2_CLIENT === 'raw') {
    const session = http2.connect(`http://127.0.0.1:${port}`);
    call = () => new Promise((resolve, reject) => {
      const req = session.request({ ':method': 'POST', ':path': '/vat.calculation.v1.CalculationService/GetTransaction', 'content-type': 'application/proto' });
      req.on('response', () => {});
      req.on('data', () => {});
      req.on('end', resolve);
      req.on('error', reject);
      req.end(Buffer.from([0x0a, 0x03, 0x61, 0x62, 0x63]));
    });
  } else if ((process.env.H2_CLIENT ?? 'lean') === 'lean') {
    const c = createClient(CalculationService, createH2Transport({ baseUrl: `http://127.0.0.1:${port}` }));
    call = () => c.getTransaction({ id: 'abc' } as any);
  } else {
    // connect-node's own transport, as the deployment used it before createH2Transport.
    const c = createClient(CalculationService, createConnectTransport({ baseUrl: `http://127.0.0.1:${port}`, httpVersion: '2', acceptCompression: [] }));
    call = () => c.getTransaction({ id: 'abc' } as any);
  }
  const conc = Number(process.env.H2_CONC ?? 64);
  const run = async (ms: number) => {
    let n = 0; const end = Date.now() + ms;
    await Promise.all(Array.from({ length: conc }, async () => { while (Date.now() < end) { await call(); n++; } }));
    return n;
  };
  await run(2000);
  const c0 = process.cpuUsage(); const s0 = await cpuOf(); const t0 = Date.now();
  const n = await run(Number(process.env.H2_MS ?? 5000));
  const c1 = process.cpuUsage(c0); const s1 = await cpuOf(); const dt = Date.now() - t0;
  const us = (u: NodeJS.CpuUsage) => u.user + u.system;
  console.log(`${kind}/${process.env.H2_CLIENT ?? 'lean'}: ${Math.round(n / dt * 1000)} calls/s; client ${(us(c1) / n).toFixed(1)} µs/call, server ${((us(s1) - us(s0)) / n).toFixed(1)} µs/call`);
  child.kill(); process.exit(0);
}
if (process.argv[2] === 'server') void server(); else void client();
