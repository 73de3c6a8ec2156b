import { pino, type DestinationStream, type Logger } from 'pino';

/**
 * Structured logs: one JSON object per line (pino), `level` as its name, `time` in ISO 8601, the
 * process id, and `name` saying which process wrote it (`api`, `supervisor`, `start`). The server,
 * its supervisor and `npm start` share one stdout, so `name` and `pid` tell their lines apart.
 */

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type { Logger, DestinationStream };

export interface LoggerOptions {
  name: string;
  /** Default 'info'; 'silent' writes nothing. */
  level?: LogLevel;
  /** Where the lines go (tests capture them); default stdout, written asynchronously. */
  destination?: DestinationStream;
  /** Write stdout synchronously (a last line before process.exit(), e.g. a refused configuration). */
  sync?: boolean;
}

/**
 * stdout written asynchronously, flushed at exit: one per process, shared by every logger. Lines
 * wait in memory while a write is under way; past 16 MiB waiting (stdout slower than the lines
 * come, for seconds), new lines are dropped instead of held: a log must not take the process's
 * memory down with it.
 */
const MAX_WAITING_BYTES = 16 * 2 ** 20;
let stdout: DestinationStream | undefined;
const discard: DestinationStream = { write: () => {} };

export function createLogger(opts: LoggerOptions): Logger {
  const level = opts.level ?? 'info';
  const destination =
    opts.destination ??
    (level === 'silent'
      ? discard
      : opts.sync
        ? pino.destination({ sync: true })
        : (stdout ??= pino.destination({ sync: false, maxLength: MAX_WAITING_BYTES })));
  return pino(
    {
      name: opts.name,
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

/** LOG_LEVEL as a level, or an error naming the accepted values. */
export function parseLogLevel(value: string | undefined): LogLevel {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '') return 'info';
  if ((LOG_LEVELS as readonly string[]).includes(v)) return v as LogLevel;
  throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got ${JSON.stringify(value)})`);
}

/**
 * Exit once the lines written so far are out (the asynchronous stdout holds them briefly; a
 * stuck stdout does not hold the exit more than a second).
 */
export function exitWhenFlushed(logger: Logger, code: number): void {
  const exit = () => process.exit(code);
  setTimeout(exit, 1000);
  logger.flush(exit);
}

/** Whether a string needs escaping in a JSON string of ASCII: a control character, a quote, a backslash, anything past ASCII. */
function needsEscape(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || c > 0x7e) return true;
  }
  return false;
}
const PAST_ASCII = /[\u007f-\uffff]/g;
const hex4 = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
/** The fixed parts of a request line, as bytes. */
const PIECES = {
  method: Buffer.from('","method":"'),
  path: Buffer.from('","path":'),
  query: Buffer.from(',"query":'),
  status: Buffer.from(',"status":'),
  null: Buffer.from('null'),
  aborted: Buffer.from(',"aborted":true'),
  bytes: Buffer.from(',"bytes":'),
  ms: Buffer.from(',"ms":'),
  client: Buffer.from(',"client":"'),
  end: Buffer.from('","msg":"request"}\n'),
};

/** `bytes` at `at` in `b`; returns the offset past them. */
function piece(b: Buffer, at: number, bytes: Buffer): number {
  b.set(bytes, at);
  return at + bytes.length;
}

/** A whole number ≥ 0 in decimal at `at` in `b`; returns the offset past it. */
function digits(b: Buffer, at: number, n: number): number {
  let end = at;
  for (let m = n; m >= 10; m = Math.floor(m / 10)) end++;
  for (let i = end, m = n; i >= at; i--, m = Math.floor(m / 10)) b[i] = 0x30 + (m % 10);
  return end + 1;
}

/** A string as JSON in ASCII (the lines are kept as bytes, one per character): as it is between quotes when nothing needs escaping (most paths and queries). */
const str = (s: string) => (needsEscape(s) ? JSON.stringify(s).replace(PAST_ASCII, hex4) : `"${s}"`);

/**
 * The `request` lines of a logger, one per request, written as the logger itself would write
 * them (`{"level":"info","time":…,"pid":…,"name":…, the fields, "msg":"request"}`) but built by
 * hand, copied into a buffer, and handed to the logger's destination in batches: every 50 ms,
 * or as soon as 64 KiB wait. A pino call costs about 5 µs a line, and each write to the
 * destination (an asynchronous write to stdout) a few µs more; this costs well under 1 µs a
 * line, and keeps nothing on the JavaScript heap between two batches (lines held as strings
 * outlive the young generation and make every collection dearer). That matters when the answer
 * itself is a few µs of copying bytes (BENCHMARKS.md). `flush()` writes the waiting lines at
 * once (the server calls it when it closes); a process that dies loses at most the last 50 ms.
 */
export class RequestLog {
  /** Lines are written at least this often, and as soon as this many bytes wait. */
  static readonly MAX_WAIT_MS = 50;
  static readonly MAX_PENDING = 65_536;
  /**
   * Room past MAX_PENDING for the line being written: the server cuts a path at 1,024 characters
   * and a query at 512, six bytes each at worst escaped. A longer line is written on its own.
   */
  private static readonly ROOM = 12_288;
  private readonly stream: DestinationStream;
  private readonly head: string;
  private readonly buffer = Buffer.allocUnsafe(RequestLog.MAX_PENDING + RequestLog.ROOM);
  private used = 0;
  private timer: NodeJS.Timeout | undefined;
  private lastMs = 0;
  private lastTime = '';

  constructor(logger: Logger) {
    const l = logger as unknown as Record<symbol, unknown>;
    this.stream = l[pino.symbols.streamSym] as DestinationStream;
    this.head = `{"level":"info","time":"%"${l[pino.symbols.chindingsSym] as string},"request_id":"`;
  }

  /** A logger's request log, or null when its level leaves out info lines (nothing is built then). */
  static of(logger: Logger): RequestLog | null {
    return logger.isLevelEnabled('info') ? new RequestLog(logger) : null;
  }

  /**
   * One line. `id`, `method` and `client` are tokens written as they are (a request id matches
   * REQUEST_ID_PATTERN, Node's parser admits only method tokens, a client is an address prefix);
   * `path` and `query` are escaped when they need it. `status` null: nothing was sent. `ms` is
   * written to a tenth.
   *
   * The line goes into the buffer piece by piece, numbers digit by digit: joined as one string
   * first, it cost about 830 bytes of garbage a request (a dozen joined strings, then the flat
   * copy Buffer#write makes of them), for the same CPU (a sampling heap profile of the fast path
   * under wrk, BENCHMARKS.md).
   */
  write(
    id: string,
    method: string,
    path: string,
    query: string | undefined,
    status: number | null,
    aborted: boolean,
    bytes: number,
    ms: number,
    client: string,
  ): void {
    const now = Date.now();
    if (now !== this.lastMs) {
      this.lastMs = now;
      this.lastTime = this.head.replace('%', new Date(now).toISOString());
    }
    const p = str(path);
    const q = query === undefined ? undefined : str(query);
    // The fixed pieces and the numbers take at most 160 bytes; a line too long for the buffer gets one of its own.
    const most = this.lastTime.length + id.length + method.length + p.length + (q?.length ?? 0) + client.length + 160;
    if (most > this.buffer.length - this.used) {
      this.flush();
      if (most > this.buffer.length) {
        const own = Buffer.allocUnsafe(most);
        this.stream.write(own.toString('latin1', 0, this.put(own, 0, id, method, p, q, status, aborted, bytes, ms, client)));
        return;
      }
    }
    this.used = this.put(this.buffer, this.used, id, method, p, q, status, aborted, bytes, ms, client);
    if (this.used >= RequestLog.MAX_PENDING) this.flush();
    else if (!this.timer) this.timer = setTimeout(this.flushLater, RequestLog.MAX_WAIT_MS);
  }

  /** The line at `at` in `b` (`p` and `q` escaped already); returns the offset past it. */
  private put(
    b: Buffer,
    at: number,
    id: string,
    method: string,
    p: string,
    q: string | undefined,
    status: number | null,
    aborted: boolean,
    bytes: number,
    ms: number,
    client: string,
  ): number {
    at += b.write(this.lastTime, at, 'latin1');
    at += b.write(id, at, 'latin1');
    at = piece(b, at, PIECES.method);
    at += b.write(method, at, 'latin1');
    at = piece(b, at, PIECES.path);
    at += b.write(p, at, 'latin1');
    if (q !== undefined) {
      at = piece(b, at, PIECES.query);
      at += b.write(q, at, 'latin1');
    }
    at = piece(b, at, PIECES.status);
    at = status === null ? piece(b, at, PIECES.null) : digits(b, at, status);
    if (aborted) at = piece(b, at, PIECES.aborted);
    at = digits(b, piece(b, at, PIECES.bytes), bytes);
    const tenths = Math.round(ms * 10);
    at = digits(b, piece(b, at, PIECES.ms), Math.floor(tenths / 10));
    if (tenths % 10 !== 0) {
      b[at++] = 0x2e; // .
      b[at++] = 0x30 + (tenths % 10);
    }
    at = piece(b, at, PIECES.client);
    at += b.write(client, at, 'latin1');
    return piece(b, at, PIECES.end);
  }

  private readonly flushLater = () => {
    this.timer = undefined;
    this.flush();
  };

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.used === 0) return;
    const lines = this.buffer.toString('latin1', 0, this.used);
    this.used = 0;
    this.stream.write(lines);
  }
}
