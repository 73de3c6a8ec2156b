import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { PROBLEM_TYPE, SPECIAL_PROBLEMS } from '../contract/problems.ts';
import { normalizeIp } from './client-ip.ts';
import { rateKey } from './ip-text.ts';

/**
 * Backpressure for pipelined HTTP/1.1 requests (issue 34, finding 1).
 *
 * Node's parser hands over every request of a chunk it has read (64 KiB: some 1,600 small
 * `GET`s) before it checks whether the socket can take more, and the listener started the work of
 * each at once: 20 connections that wrote 2,000 requests each and never read made the server
 * build 40,000 answers it could not send, and it ran out of heap. Here a connection is answered
 * one request at a time: the next one starts once the answer before it has been handed to the
 * socket (its 'close', which follows 'finish'). A client that does not read therefore stops
 * getting work done, Node's own check (the socket needs a drain) stops reading from it, and what
 * it has already sent waits as request objects only, capped per connection and per client
 * address. Past a cap the connection gets a 429 problem in its turn and is closed; the requests
 * after it on that connection are not answered.
 *
 * A client that sends one request at a time (every browser, every usual HTTP library) never
 * waits here.
 */

/** Requests one connection may have sent and not yet been answered (the one being answered included). */
export const MAX_PIPELINED_PER_CONNECTION = 32;
/** The same, over all connections of one client address (IPv6: its /64); above MAX_CONNECTIONS_PER_IP so one request per connection never reaches it. */
export const MAX_PIPELINED_PER_IP = 256;
/** How long a refused connection is kept for its 429 to be read before it is closed regardless. */
const REFUSED_GRACE_MS = 5_000;
/**
 * How long new connections from an address refused here are refused at once (by the connection
 * guard, before Node parses anything). Node parses a whole chunk it has read, and every request
 * in it costs an object and, when the connection closes unanswered, an error: about 1 s of one
 * core for 20 connections of 2,000 requests. Without this an address could pay that again every
 * few seconds.
 */
export const PIPELINING_PENALTY_MS = 10_000;

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

export interface PipeliningOptions {
  perConnection?: number;
  perIp?: number;
  /** Peers the per-address cap does not apply to (trusted proxies carry many clients). */
  exempt?: (ip: string) => boolean;
  /** Headers every problem carries (licence link, nosniff, CORS). */
  headers: () => Record<string, string>;
}

export interface PipeliningStats {
  /** Requests received and not yet answered, all connections together. */
  queued: number;
  /** Connections refused (429) for having too many unanswered requests. */
  refused: number;
}

interface Entry {
  req: IncomingMessage;
  res: ServerResponse;
  done: boolean;
}

interface Line {
  key: string | null;
  /** The request being answered, then those waiting, in the order they came. */
  entries: Entry[];
  refused: boolean;
}

const LINE = Symbol('pipeline');
type Lined = Socket & { [LINE]?: Line };

export interface Pipelining {
  /** The server's request listener around `listener`. */
  wrap(listener: Listener): Listener;
  stats(): PipeliningStats;
  /** Until when (ms since the epoch) new connections from the address `key` are refused, or 0. */
  penalisedUntil(key: string): number;
}

export function pipelining(opts: PipeliningOptions): Pipelining {
  const perConnection = opts.perConnection ?? MAX_PIPELINED_PER_CONNECTION;
  const perIp = opts.perIp ?? MAX_PIPELINED_PER_IP;
  const byIp = new Map<string, number>();
  const penalties = new Map<string, number>();
  /** The connections of each address that have sent a request. */
  const sockets = new Map<string, Set<Lined>>();
  let queued = 0;
  let refused = 0;
  let listener: Listener = () => {};

  const count = (line: Line, n: number) => {
    queued += n;
    if (line.key === null) return;
    const v = (byIp.get(line.key) ?? 0) + n;
    if (v <= 0) byIp.delete(line.key);
    else byIp.set(line.key, v);
  };

  /** The answer at the head of the line is out (or the client left): start the next one. */
  function next(line: Line, e: Entry): void {
    if (e.done) return;
    e.done = true;
    count(line, -1);
    const i = line.entries.indexOf(e);
    if (i >= 0) line.entries.splice(i, 1);
    const head = line.entries[0];
    if (i === 0 && head) start(line, head);
  }

  function start(line: Line, e: Entry): void {
    e.res.once('close', () => next(line, e));
    listener(e.req, e.res);
  }

  function lineOf(socket: Lined): Line {
    let line = socket[LINE];
    if (line) return line;
    const ip = normalizeIp(socket.remoteAddress) ?? 'unknown';
    line = socket[LINE] = { key: opts.exempt?.(ip) ? null : rateKey(ip), entries: [], refused: false };
    const l = line;
    if (l.key !== null) {
      let mine = sockets.get(l.key);
      if (!mine) sockets.set(l.key, (mine = new Set()));
      mine.add(socket);
    }
    socket.once('close', () => {
      for (const e of l.entries) {
        if (!e.done) count(l, -1);
        e.done = true;
      }
      l.entries = [];
      if (l.key === null) return;
      const mine = sockets.get(l.key);
      mine?.delete(socket);
      if (mine?.size === 0) sockets.delete(l.key);
    });
    return line;
  }

  /** Read no more from a connection (what Node has read is parsed whatever we do) and answer nothing more on it. */
  function stop(line: Line, socket: Socket): void {
    if (line.refused) return;
    line.refused = true;
    socket.pause();
    setTimeout(() => socket.destroy(), REFUSED_GRACE_MS).unref();
    // When it closes, Node destroys each request it parsed and nobody answered with an error of
    // its own whose stack it reads at once: two thirds of the cost of the attack (1 s of one core
    // for 20 connections of 2,000 requests, measured). Those errors reach no one; they are made
    // without a stack.
    let limit = Error.stackTraceLimit;
    socket.prependListener('close', () => {
      limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 0;
    });
    socket.on('close', () => (Error.stackTraceLimit = limit));
  }

  function refuse(line: Line, socket: Socket, res: ServerResponse, detail: string): void {
    refused++;
    stop(line, socket);
    if (line.key !== null) {
      if (penalties.size >= 10_000) penalties.clear();
      penalties.set(line.key, Date.now() + PIPELINING_PENALTY_MS);
      // The address's other connections that are ahead of their answers stop too, before Node reads
      // (and parses) what they have sent.
      for (const other of sockets.get(line.key) ?? []) {
        const l = other[LINE]!;
        if (l.entries.length > 1) stop(l, other);
      }
    }
    const body = JSON.stringify({ ...SPECIAL_PROBLEMS['too-many-pipelined'], detail, instance: '/' });
    res.writeHead(429, {
      ...opts.headers(),
      'content-type': `${PROBLEM_TYPE}; charset=utf-8`,
      'cache-control': 'no-store',
      'retry-after': String(PIPELINING_PENALTY_MS / 1000),
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    });
    res.end(body);
  }

  const wrapped: Listener = (req, res) => {
    const socket = req.socket as Lined;
    const line = lineOf(socket);
    if (line.refused) return;
    const mine = line.entries.length;
    if (mine >= perConnection) {
      refuse(line, socket, res, `at most ${perConnection} requests may wait for their answers on one connection; read the answers before sending more`);
      return;
    }
    if (line.key !== null && (byIp.get(line.key) ?? 0) >= perIp) {
      refuse(line, socket, res, `at most ${perIp} requests from one client address may wait for their answers; read the answers before sending more`);
      return;
    }
    const e: Entry = { req, res, done: false };
    line.entries.push(e);
    count(line, 1);
    if (mine === 0) start(line, e);
  };

  return {
    wrap: (l) => {
      listener = l;
      return wrapped;
    },
    stats: () => ({ queued, refused }),
    penalisedUntil: (key) => {
      const until = penalties.get(key) ?? 0;
      if (until && until <= Date.now()) penalties.delete(key);
      return until > Date.now() ? until : 0;
    },
  };
}
