/** The media type of every error body (RFC 9457). */
export const PROBLEM_TYPE = 'application/problem+json';

/** Problem type URIs by status: our own under /problems/, the IANA one for rate limits (SPEC §7). */
export const PROBLEM_TYPES = {
  400: '/problems/invalid-parameter',
  401: '/problems/unauthorized',
  403: '/problems/forbidden',
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
export type ProblemStatus = keyof typeof PROBLEM_TYPES;

/** The title of each problem type (RFC 9457 §3.1.3: the same for every occurrence of a type). */
export const PROBLEM_TITLES: Record<ProblemStatus, string> = {
  400: 'Invalid request',
  401: 'Unauthorized',
  403: 'Forbidden',
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

/**
 * Problem types that are not the default of their status: each a URI under /problems/ with its
 * status and title, so every error body of the service (REST, MCP, the connection guard) is
 * declared here and documented from here.
 */
export const SPECIAL_PROBLEMS = {
  'malformed-request': { type: '/problems/malformed-request', title: 'Invalid request', status: 400 },
  'forbidden-host': { type: '/problems/forbidden-host', title: 'Forbidden', status: 403 },
  'forbidden-origin': { type: '/problems/forbidden-origin', title: 'Forbidden', status: 403 },
  'too-many-connections': { type: '/problems/too-many-connections', title: 'Service unavailable', status: 503 },
  'too-many-client-connections': { type: '/problems/too-many-connections', title: 'Too many connections', status: 429 },
  'too-many-pipelined': { type: '/problems/too-many-pipelined-requests', title: 'Too many requests', status: 429 },
  'search-busy': { type: '/problems/search-busy', title: 'Service unavailable', status: 503 },
  'mcp-sessions-exhausted': { type: '/problems/mcp-sessions-exhausted', title: 'Service unavailable', status: 503 },
} as const satisfies Record<string, { status: number; title: string; type: string }>;

export interface ProblemExtras {
  errors?: { param: string; message: string }[];
  suggestions?: string[];
  allowed?: string[];
  policy?: string;
  /** The request's X-Request-Id (quote it when reporting a problem). */
  request_id?: string;
}

/** One problem type: what a client branches on (`type`), with its status and title. */
export interface ProblemKind {
  status: number;
  title: string;
  type: string;
}

/** The default problem type of a status. */
export function problemOf(status: ProblemStatus): ProblemKind {
  return { type: PROBLEM_TYPES[status], title: PROBLEM_TITLES[status], status };
}

/** An RFC 9457 body; the caller adds the headers. */
export function problemJson(kind: ProblemKind, detail: string, instance: string, extras: ProblemExtras | Record<string, unknown> = {}): string {
  return JSON.stringify({ type: kind.type, title: kind.title, status: kind.status, detail, instance, ...extras });
}

/** An RFC 9457 body of the default type of a status. */
export function problemBody(status: ProblemStatus, detail: string, instance: string, extras: ProblemExtras = {}): string {
  return problemJson(problemOf(status), detail, instance, extras);
}
