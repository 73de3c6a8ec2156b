// The baseline: raw node:http answering fixed bytes from memory, no routing, no headers beyond the type.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const files = JSON.parse(process.env.RAW_FILES ?? '{}') as Record<string, string>;
const bodies = new Map(Object.entries(files).map(([path, file]) => [path, readFileSync(file)]));
const server = createServer((req, res) => {
  const body = bodies.get(req.url ?? '');
  if (!body) {
    res.statusCode = 404;
    res.end();
    return;
  }
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.end(body);
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('ready'));
