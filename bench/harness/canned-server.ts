// The HTTP ceiling: a bare Fastify that answers every request with one captured reply
// (same status, content type and bytes as the real endpoint), with nothing else to do.
// Run in its own process by the harness: node --import tsx canned-server.ts <reply.json> <port>
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const reply = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as { status: number; contentType: string; bodyBase64: string };
const port = Number(process.argv[3]);
const body = Buffer.from(reply.bodyBase64, 'base64');
const app = Fastify({ logger: false });
app.all('/*', async (_request, res) => {
  res.code(reply.status).header('content-type', reply.contentType).send(body);
});
await app.listen({ host: '127.0.0.1', port });
console.log('READY');
