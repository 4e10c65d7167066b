import Fastify from 'fastify';

// The baseline every ratio is measured against: a bare Fastify hello-world.
const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
const address = await app.listen({ host: '127.0.0.1', port: Number(process.argv[2] ?? 0) });
process.stdout.write(`${address}\n`);
