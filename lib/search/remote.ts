/**
 * An OpenAI-compatible embeddings endpoint, called with the openai client (POST {base}/embeddings, `{ model, input }` →
 * `{ data: [{ index, embedding }] }`), used instead of the local word vectors when
 * EMBEDDINGS_BASE_URL is set: by the pipeline for the documents, by the API for the queries. The
 * configuration comes from lib/config.ts (embeddingsOf), passed down by the entry points.
 */
import type OpenAI from 'openai';

export interface EmbeddingsConfig {
  baseUrl: string;
  apiKey: string | undefined;
  model: string;
  timeoutMs: number;
}

export const DEFAULT_EMBEDDINGS_MODEL = 'text-embedding-3-small';

const clients = new WeakMap<typeof fetch, Map<string, OpenAI>>();

/**
 * The openai client for an endpoint, imported on first use (a build or server without
 * EMBEDDINGS_BASE_URL never loads it). Everything it would read from OPENAI_* variables is set
 * here, so no OpenAI key, organisation or project reaches another endpoint; without
 * EMBEDDINGS_API_KEY no Authorization header is sent. No retries: a failed call falls back at once.
 */
async function client(cfg: EmbeddingsConfig, fetchFn: typeof fetch): Promise<OpenAI> {
  let byEndpoint = clients.get(fetchFn);
  if (!byEndpoint) clients.set(fetchFn, (byEndpoint = new Map()));
  const key = `${cfg.baseUrl}|${cfg.apiKey ?? ''}`;
  let c = byEndpoint.get(key);
  if (!c) {
    const { default: OpenAIClient } = await import('openai');
    c = new OpenAIClient({
      baseURL: cfg.baseUrl,
      apiKey: cfg.apiKey ?? 'unused',
      organization: null,
      project: null,
      ...(cfg.apiKey ? {} : { defaultHeaders: { authorization: null } }),
      maxRetries: 0,
      timeout: cfg.timeoutMs,
      fetch: fetchFn,
    });
    byEndpoint.set(key, c);
  }
  return c;
}

/** Embed `inputs` (one request); throws on a network error, a timeout, a non-2xx or a malformed answer. */
export async function embedRemote(
  cfg: EmbeddingsConfig,
  inputs: readonly string[],
  fetchFn: typeof fetch = fetch,
  timeoutMs = cfg.timeoutMs,
): Promise<Float32Array[]> {
  const openai = await client(cfg, fetchFn);
  // 'float': the JSON arrays every OpenAI-compatible server writes (the client would otherwise ask for base64).
  const body = await openai.embeddings
    .create({ model: cfg.model, input: [...inputs], encoding_format: 'float' }, { timeout: timeoutMs })
    .catch((e: unknown) => {
      // the client's APIError carries the HTTP status; a connection error or a timeout has none
      const status = (e as { status?: unknown }).status;
      throw new Error(
        typeof status === 'number' ? `embeddings endpoint answered ${status}` : `embeddings endpoint: ${e instanceof Error ? e.message : String(e)}`,
      );
    });
  const data: { index?: unknown; embedding?: unknown }[] = Array.isArray(body?.data) ? body.data : [];
  const out: Float32Array[] = new Array<Float32Array>(inputs.length);
  for (const [i, d] of data.entries()) {
    const at = typeof d.index === 'number' ? d.index : i;
    if (!Array.isArray(d.embedding) || !d.embedding.every((x) => typeof x === 'number'))
      throw new Error('embeddings endpoint: an embedding is not an array of numbers');
    if (at >= 0 && at < inputs.length) out[at] = Float32Array.from(d.embedding as number[]);
  }
  for (let i = 0; i < inputs.length; i++) if (!out[i]) throw new Error(`embeddings endpoint: no embedding for input ${i}`);
  const dims = out[0]!.length;
  if (dims === 0 || out.some((v) => v.length !== dims)) throw new Error('embeddings endpoint: embeddings of unequal or zero length');
  return out;
}
