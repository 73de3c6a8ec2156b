import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nginxString } from '../edge/nginx.ts';

/**
 * nginx as the path-addressed route's comparator (issue 32): one worker, `open_file_cache`,
 * `sendfile`, serving one file with the very bytes and headers our server sent for the path.
 * Its own ETag is off (ours is added); its Last-Modified comes from the file's time, set to ours;
 * it adds `Server: nginx` and `Accept-Ranges: bytes`, 35 bytes our answer does not carry. No
 * access log, as raw node:http has none: both are floors.
 */

/** Whether nginx can be run here (`apt-get install nginx`). */
export function nginxAvailable(): boolean {
  try {
    execFileSync('nginx', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export interface NginxServer {
  child: ChildProcess;
  /** The worker's pid: the process that answers, whose CPU time is measured. */
  workerPid(): number | undefined;
}

/** Start nginx on `port` answering `path` with `body` and `headers` (as our server sent them, minus Date, Connection, Keep-Alive, Content-Length). */
export function startNginx(port: number, path: string, headers: Record<string, string>, body: Buffer): NginxServer {
  const dir = mkdtempSync(join(tmpdir(), 'nginx-'));
  // The worker runs as nobody: it must read the file.
  chmodSync(dir, 0o755);
  const file = join(dir, 'answer.body');
  writeFileSync(file, body, { mode: 0o644 });
  const own = Object.entries(headers).filter(([n]) => !/^(content-type|last-modified)$/i.test(n));
  const type = Object.entries(headers).find(([n]) => /^content-type$/i.test(n))?.[1] ?? 'application/octet-stream';
  const modified = Object.entries(headers).find(([n]) => /^last-modified$/i.test(n))?.[1];
  if (modified) utimesSync(file, new Date(modified), new Date(modified));
  const conf = join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 4096; }
http {
  access_log off;
  server_tokens off;
  sendfile on;
  tcp_nopush on;
  keepalive_timeout 5s;
  keepalive_requests 100000000;
  open_file_cache max=100 inactive=60s;
  open_file_cache_valid 60s;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${port};
    location = ${path} {
      types { }
      default_type ${nginxString(type)};
      etag off;
${own.map(([n, v]) => `      add_header ${n} ${nginxString(v)} always;`).join('\n')}
      alias ${file};
    }
    location = /ready { return 200; }
  }
}
`,
  );
  const child = spawn('nginx', ['-c', conf, '-p', dir], { stdio: ['ignore', 'ignore', 'inherit'] });
  return {
    child,
    workerPid: () => {
      try {
        const kids = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
        return kids.length === 1 ? Number(kids[0]) : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
