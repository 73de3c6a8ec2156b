import type { Context } from 'hono';

export const PROBLEM_TYPE = 'application/problem+json';
/** Problem type URIs: our own under /problems/, the IANA one for rate limits (SPEC §7). */
export const PROBLEM_TYPES = {
  400: '/problems/invalid-parameter',
  404: '/problems/not-found',
  405: '/problems/method-not-allowed',
  406: '/problems/not-acceptable',
  408: '/problems/request-timeout',
  413: '/problems/body-too-large',
  415: '/problems/unsupported-media-type',
  417: '/problems/expectation-failed',
  429: 'https://iana.org/assignments/http-problem-types#quota-exceeded',
  431: '/problems/headers-too-large',
  500: '/problems/internal-error',
  503: '/problems/no-build',
} as const;
const TITLES: Record<number, string> = {
  400: 'Invalid request',
  404: 'Not found',
  405: 'Method not allowed',
  406: 'Not acceptable',
  408: 'Request timeout',
  413: 'Request body too large',
  415: 'Unsupported media type',
  417: 'Expectation failed',
  429: 'Too many requests',
  431: 'Request header fields too large',
  500: 'Internal error',
  503: 'Service unavailable',
};

export interface ProblemExtras {
  errors?: { param: string; message: string }[];
  suggestions?: string[];
  allowed?: string[];
  policy?: string;
}

/** An error a client can act on: thrown anywhere, turned into problem details by one handler. */
export class ApiError extends Error {
  constructor(
    readonly status: keyof typeof PROBLEM_TYPES,
    readonly detail: string,
    readonly extras: ProblemExtras = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'ApiError';
  }
}

/** RFC 9457 body; the caller adds headers. */
export function problemBody(status: keyof typeof PROBLEM_TYPES, detail: string, instance: string, extras: ProblemExtras = {}): string {
  const type = PROBLEM_TYPES[status];
  return JSON.stringify({ type, title: TITLES[status], status, detail, instance, ...extras });
}

export function problemResponse(c: Context, err: ApiError, common: Record<string, string> = {}): Response {
  const body = problemBody(err.status, err.detail, c.req.path, err.extras);
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
