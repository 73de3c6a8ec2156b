import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { clientIp, UNKNOWN_CLIENT, type TrustProxy } from './client-ip.ts';
import { canonicalIp } from './ip-text.ts';
import { ApiError } from './problem.ts';

/** Who may read /metrics (METRICS in lib/config.ts). */
export type MetricsAccess = 'off' | 'loopback' | 'token';

/**
 * The check GET /metrics runs before it renders the counters, or null when /metrics is off (not
 * served). Rendering costs milliseconds of the one thread that answers everyone (16 connections
 * from one address raised a normal client's p99 from 7.9 to 176 ms), so by default only this
 * machine may ask:
 * - `loopback`: the client address (after TRUST_PROXY: behind a proxy on this machine, the
 *   address the proxy names, never the proxy's own) is 127.0.0.0/8 or ::1; anyone else gets 403;
 * - `token`: `Authorization: Bearer <METRICS_TOKEN>`, compared in constant time; else 401 with
 *   `WWW-Authenticate: Bearer`.
 */
export function metricsGate(access: MetricsAccess, token: string | undefined, trust: TrustProxy): ((c: Context) => void) | null {
  if (access === 'off') return null;
  if (access === 'loopback') {
    return (c) => {
      const ip = clientIp(c, trust);
      const addr = ip === UNKNOWN_CLIENT ? null : canonicalIp(ip);
      if (addr?.range() !== 'loopback') throw new ApiError(403, '/metrics is served to this machine only (METRICS=loopback)');
    };
  }
  if (!token) throw new Error('METRICS=token needs METRICS_TOKEN');
  const expected = digest(token);
  return (c) => {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('authorization') ?? '');
    if (!m || !timingSafeEqual(digest(m[1] as string), expected)) {
      throw new ApiError(
        401,
        '/metrics takes a bearer token (METRICS=token): send Authorization: Bearer <METRICS_TOKEN>',
        {},
        { 'www-authenticate': 'Bearer realm="metrics"' },
      );
    }
  };
}

/** Equal-length digests, so that the comparison's time says nothing about the token's length. */
const digest = (s: string) => createHash('sha256').update(s).digest();
