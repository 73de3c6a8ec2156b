// The floor: raw node:http answering fixed bytes from memory with a fixed set of headers, no
// routing, no per-request work. bench/api.ts gives it, for each path, the body and every header
// our API sent for it (X-Request-Id and RateLimit included, with the values of that one answer),
// so both servers put the same bytes on the wire and the ratio measures only what we do per request.
import { createServer, type OutgoingHttpHeaders } from 'node:http';
import { readFileSync } from 'node:fs';

/** RAW_RESPONSES: a JSON file mapping a request target (or `*`, any other) to `{ status?, headers, body }` (status 200 unless given; body: a file holding the bytes). */
const spec = JSON.parse(readFileSync(process.env.RAW_RESPONSES ?? '', 'utf8')) as Record<
  string,
  { status?: number; headers: Record<string, string>; body: string }
>;
const answers = new Map<string, { status: number; headers: OutgoingHttpHeaders; body: Buffer }>();
for (const [path, r] of Object.entries(spec)) {
  const body = readFileSync(r.body);
  answers.set(path, { status: r.status ?? 200, headers: { ...r.headers, 'content-length': String(body.length) }, body });
}

/** `*`: the answer of every other target (a varied query answered with bytes of its size). */
const any = answers.get('*');
const server = createServer((req, res) => {
  const a = answers.get(req.url ?? '') ?? any;
  if (!a) {
    res.statusCode = 404;
    res.end();
    return;
  }
  res.writeHead(a.status, a.headers);
  res.end(req.method === 'HEAD' ? undefined : a.body);
});
server.keepAliveTimeout = 5000;
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('ready'));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));
