/**
 * The strict citation rule: a citation's `quote` holds only fields and values its `url` returns.
 * Every number and date written in the quote must be a value of the response (a number, or a
 * string holding it), and every field name written in it (snake_case words) a key of the
 * response or a value naming it (the time series' `metric`). Derived figures belong in the answer's `derived` list, not in a quote.
 */
import type { AppHono } from '../../api/env.ts';

type Json = unknown;

interface Seen {
  numbers: Set<number>;
  strings: Set<string>;
  keys: Set<string>;
}

function walk(v: Json, s: Seen): void {
  if (typeof v === 'number') s.numbers.add(v);
  else if (typeof v === 'string') {
    s.strings.add(v);
    for (const m of v.matchAll(/-?\d+(?:\.\d+)?/g)) s.numbers.add(Number(m[0]));
  } else if (Array.isArray(v)) for (const x of v) walk(x, s);
  else if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) {
      s.keys.add(k);
      walk(x, s);
    }
}

/** Dates (YYYY-MM-DD), then numbers, then snake_case field names of a quote. */
export function quoteTokens(quote: string): { dates: string[]; numbers: number[]; fields: string[] } {
  const dates = [...quote.matchAll(/\b\d{4}-\d{2}-\d{2}\b/g)].map((m) => m[0]);
  const rest = quote.replace(/\b\d{4}-\d{2}-\d{2}\b/g, ' ').replace(/\b[a-z]+\.[a-z_]+\b/g, ' ');
  const numbers = [...rest.matchAll(/(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])/g)].map((m) => Number(m[0]));
  const fields = [...quote.matchAll(/\b[a-z]+(?:_[a-z]+)+\b/g)].map((m) => m[0]);
  return { dates, numbers, fields };
}

/** Why a quote does not check out against the body its address returns ('' when it does). */
export function quoteProblem(quote: string, body: Json): string {
  const s: Seen = { numbers: new Set(), strings: new Set(), keys: new Set() };
  walk(body, s);
  const t = quoteTokens(quote);
  const dateSeen = (d: string) => s.strings.has(d) || [...s.strings].some((x) => x.startsWith(d));
  for (const d of t.dates) if (!dateSeen(d)) return `the date ${d} is not in the response`;
  for (const n of t.numbers) if (!s.numbers.has(n)) return `the value ${n} is not in the response`;
  for (const f of t.fields) if (!s.keys.has(f) && !s.strings.has(f)) return `the field ${f} is not in the response`;
  return '';
}

/** Fetch a citation's address from the app and check its quote ('' when it checks out). */
export async function citationProblem(app: AppHono, c: { url: string; quote: string }): Promise<string> {
  const res = await app.request(c.url);
  if (res.status !== 200) return `${c.url} answers ${res.status}`;
  const type = res.headers.get('content-type') ?? '';
  const body: Json = type.includes('json') ? await res.json() : await res.text();
  const why = quoteProblem(c.quote, body);
  return why ? `${c.url}: ${why} (quote "${c.quote}")` : '';
}

/** `a − b`, `(a − b) × 100`, `(a − b) / c × 100`: the arithmetic of a derived figure, evaluated (null when it is not arithmetic). */
export function evaluate(expr: string): number | null {
  const tokens =
    expr
      .replace(/−/g, '-')
      .replace(/×/g, '*')
      .match(/\d+(?:\.\d+)?|[-+*/()]|\S/g) ?? [];
  let i = 0;
  const atom = (): number | null => {
    const t = tokens[i++];
    if (t === '(') {
      const v = sum();
      return tokens[i++] === ')' ? v : null;
    }
    if (t === '-') {
      const v = atom();
      return v === null ? null : -v;
    }
    return t !== undefined && /^\d/.test(t) ? Number(t) : null;
  };
  const product = (): number | null => {
    let v = atom();
    while (v !== null && (tokens[i] === '*' || tokens[i] === '/')) {
      const op = tokens[i++];
      const w = atom();
      v = w === null ? null : op === '*' ? v * w : v / w;
    }
    return v;
  };
  const sum = (): number | null => {
    let v = product();
    while (v !== null && (tokens[i] === '+' || tokens[i] === '-')) {
      const op = tokens[i++];
      const w = product();
      v = w === null ? null : op === '+' ? v + w : v - w;
    }
    return v;
  };
  const v = sum();
  return i === tokens.length ? v : null;
}

/**
 * Why a derived figure does not check out ('' when it does): its citations are cited, the
 * numbers of its arithmetic (100 aside) are quoted by them, and the arithmetic gives its value.
 */
export function derivedProblem(
  d: { label: string; value: number; arithmetic: string; citations: string[] },
  citations: readonly { id: string; quote: string }[],
): string {
  for (const id of d.citations) if (!citations.some((c) => c.id === id)) return `${d.label} uses ${id}, which no citation has`;
  const quotes = citations.filter((c) => d.citations.includes(c.id));
  if (d.label === 'rank' || d.label === 'count' || d.label === 'age_days') return '';
  const v = evaluate(d.arithmetic);
  if (v === null) return `${d.label}: "${d.arithmetic}" is not arithmetic`;
  const decimals = String(d.value).split('.')[1]?.length ?? 0;
  if (Math.abs(v - d.value) > 0.5 * 10 ** -Math.max(decimals, 1) + 1e-9) return `${d.label}: ${d.arithmetic} = ${v}, not ${d.value}`;
  const quoted = new Set(quotes.flatMap((c) => quoteTokens(c.quote).numbers));
  for (const m of d.arithmetic.matchAll(/\d+(?:\.\d+)?/g)) if (m[0] !== '100' && !quoted.has(Number(m[0]))) return `${d.label}: ${m[0]} is in no cited quote`;
  return '';
}
