/**
 * An OpenAI-compatible embeddings endpoint (POST {base}/embeddings, `{ model, input }` →
 * `{ data: [{ index, embedding }] }`), used instead of the local word vectors when
 * EMBEDDINGS_BASE_URL is set: by the pipeline for the documents, by the API for the queries.
 */

export interface EmbeddingsConfig {
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
}

export const DEFAULT_EMBEDDINGS_MODEL = 'text-embedding-3-small';

type Env = Record<string, string | undefined>;
const processEnv = (): Env => (globalThis as { process?: { env?: Env } }).process?.env ?? {};

/** EMBEDDINGS_BASE_URL (required to turn it on), EMBEDDINGS_API_KEY, EMBEDDINGS_MODEL, EMBEDDINGS_TIMEOUT_MS. */
export function embeddingsConfig(env: Env = processEnv()): EmbeddingsConfig | null {
  const base = env.EMBEDDINGS_BASE_URL?.trim();
  if (!base) return null;
  const timeout = Number(env.EMBEDDINGS_TIMEOUT_MS ?? '');
  return {
    baseUrl: base.replace(/\/+$/, ''),
    apiKey: env.EMBEDDINGS_API_KEY?.trim() || undefined,
    model: env.EMBEDDINGS_MODEL?.trim() || DEFAULT_EMBEDDINGS_MODEL,
    timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : 2000,
  };
}

interface EmbeddingsResponse {
  data?: { index?: number; embedding?: unknown }[];
}

/** Embed `inputs` (one request); throws on a network error, a timeout, a non-2xx or a malformed answer. */
export async function embedRemote(cfg: EmbeddingsConfig, inputs: readonly string[], fetchFn: typeof fetch = fetch, timeoutMs = cfg.timeoutMs): Promise<Float32Array[]> {
  const res = await fetchFn(`${cfg.baseUrl}/embeddings`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cfg.apiKey ? { authorization: `Bearer ${cfg.apiKey}` } : {}) },
    body: JSON.stringify({ model: cfg.model, input: inputs }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!res.ok) throw new Error(`embeddings endpoint answered ${res.status}`);
  const body = (await res.json()) as EmbeddingsResponse;
  const out: Float32Array[] = new Array<Float32Array>(inputs.length);
  for (const [i, d] of (body.data ?? []).entries()) {
    const at = typeof d.index === 'number' ? d.index : i;
    if (!Array.isArray(d.embedding) || !d.embedding.every((x) => typeof x === 'number')) throw new Error('embeddings endpoint: an embedding is not an array of numbers');
    if (at >= 0 && at < inputs.length) out[at] = Float32Array.from(d.embedding as number[]);
  }
  for (let i = 0; i < inputs.length; i++) if (!out[i]) throw new Error(`embeddings endpoint: no embedding for input ${i}`);
  const dims = out[0]!.length;
  if (dims === 0 || out.some((v) => v.length !== dims)) throw new Error('embeddings endpoint: embeddings of unequal or zero length');
  return out;
}
