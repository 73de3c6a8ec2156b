import type { Config } from '../../lib/config.ts';

/** How /v1/ask may call a model; null (no OPENAI_API_KEY) means the grounded answerer only. */
export interface LlmConfig {
  apiKey: string;
  /** An OpenAI-compatible base URL (…/v1); the openai client's default when absent. */
  baseURL?: string;
  model: string;
  /** The whole model call, connection included, must finish within this. */
  timeoutMs: number;
}

/** What answering a question may use; the server passes its own to the app (createApp's `ask`). */
export interface AskOptions {
  llm?: LlmConfig | null;
  /** The clock (questions about dates after it are about the future). */
  now?: Date;
  /** Hears why a model answer was refused and the grounded one sent instead. */
  onFallback?: (reason: string) => void;
}

/** From the configuration (lib/config.ts): the model path is on when OPENAI_API_KEY is set. */
export function llmConfigOf(c: Pick<Config, 'OPENAI_API_KEY' | 'OPENAI_BASE_URL' | 'OPENAI_MODEL' | 'OPENAI_TIMEOUT_MS'>): LlmConfig | null {
  if (!c.OPENAI_API_KEY) return null;
  return { apiKey: c.OPENAI_API_KEY, ...(c.OPENAI_BASE_URL ? { baseURL: c.OPENAI_BASE_URL } : {}), model: c.OPENAI_MODEL, timeoutMs: c.OPENAI_TIMEOUT_MS };
}
