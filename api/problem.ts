import type { Context } from 'hono';
import { PROBLEM_TYPE, problemBody, type ProblemExtras, type ProblemStatus } from '../contract/problems.ts';
import { withRequestId } from './request-id.ts';

/** An error a client can act on: thrown anywhere, turned into problem details by one handler. */
export class ApiError extends Error {
  readonly status: ProblemStatus;
  readonly detail: string;
  readonly extras: ProblemExtras;
  readonly headers: Record<string, string>;
  constructor(status: ProblemStatus, detail: string, extras: ProblemExtras = {}, headers: Record<string, string> = {}) {
    super(detail);
    this.name = 'ApiError';
    this.status = status;
    this.detail = detail;
    this.extras = extras;
    this.headers = headers;
  }
}

export function problemResponse(c: Context, err: ApiError, common: Record<string, string> = {}): Response {
  const body = problemBody(err.status, err.detail, c.req.path, withRequestId(c, err.extras));
  return new Response(body, {
    status: err.status,
    headers: {
      ...common,
      ...(c.get('limitHeaders') as Record<string, string> | undefined),
      'content-type': `${PROBLEM_TYPE}; charset=utf-8`,
      'cache-control': 'no-store',
      ...err.headers,
    },
  });
}
