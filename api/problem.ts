import type { AppContext } from './env.ts';
import { PROBLEM_TYPE, problemBody, problemJson, type ProblemExtras, type ProblemKind, type ProblemStatus } from '../contract/problems.ts';
import { requestIdOf } from './request-id.ts';

/** An error a client can act on: thrown anywhere, turned into problem details by one handler. */
export class ApiError extends Error {
  readonly status: ProblemStatus;
  readonly detail: string;
  readonly extras: ProblemExtras;
  readonly headers: Record<string, string>;
  /** A problem type other than the status's default (contract/problems.ts SPECIAL_PROBLEMS). */
  readonly kind: ProblemKind | undefined;
  constructor(status: ProblemStatus, detail: string, extras: ProblemExtras = {}, headers: Record<string, string> = {}, kind?: ProblemKind) {
    super(detail);
    this.kind = kind;
    this.name = 'ApiError';
    this.status = status;
    this.detail = detail;
    this.extras = extras;
    this.headers = headers;
  }
}

/** What a problem says: an ApiError's status, detail, extension members and headers, or the same as plain data (no stack to capture). */
export type Problem = Pick<ApiError, 'status' | 'detail' | 'extras' | 'headers'> & { kind?: ProblemKind | undefined };

const encoder = new TextEncoder();

/**
 * A problem's status, headers and body: `common` first (the build's headers, Vary), then the
 * rate limiter's, the type, no-store, the error's own, and the length (a HEAD gets it too). The
 * app (problemResponse) and the listener's fast path (its 429) both answer with it.
 */
export function problemReply(
  err: Problem,
  instance: string,
  requestId: string | undefined,
  common: Record<string, string>,
  limitHeaders?: Record<string, string>,
): { status: ProblemStatus; headers: Record<string, string>; body: Uint8Array } {
  const extras = requestId ? { ...err.extras, request_id: requestId } : err.extras;
  const body = encoder.encode(err.kind ? problemJson(err.kind, err.detail, instance, extras) : problemBody(err.status, err.detail, instance, extras));
  return {
    status: err.status,
    headers: {
      ...common,
      ...limitHeaders,
      'content-type': `${PROBLEM_TYPE}; charset=utf-8`,
      'cache-control': 'no-store',
      ...err.headers,
      'content-length': String(body.byteLength),
    },
    body,
  };
}

export function problemResponse(c: AppContext, err: ApiError, common: Record<string, string> = {}): Response {
  const p = problemReply(err, c.req.path, requestIdOf(c), common, c.get('limitHeaders'));
  return new Response(p.body as ConstructorParameters<typeof Response>[0], { status: p.status, headers: p.headers });
}
