/** How /v1/ask may call a model; null (no OPENAI_API_KEY) means the grounded answerer only. */
export interface LlmConfig {
  apiKey: string;
  /** An OpenAI-compatible base URL (…/v1); the openai client's default when absent. */
  baseURL?: string;
  model: string;
  /** The whole model call, connection included, must finish within this. */
  timeoutMs: number;
}

export interface AskOptions {
  llm?: LlmConfig | null;
  /** The clock (questions about dates after it are about the future). */
  now?: Date;
  /** Hears why a model answer was refused and the grounded one sent instead. */
  onFallback?: (reason: string) => void;
}

/** From the API's environment (api/env.ts): the model path is on when OPENAI_API_KEY is set. */
export function llmConfigFromEnv(env: { OPENAI_API_KEY?: string | undefined; OPENAI_BASE_URL?: string | undefined; OPENAI_MODEL: string; OPENAI_TIMEOUT_MS: number }): LlmConfig | null {
  if (!env.OPENAI_API_KEY) return null;
  return { apiKey: env.OPENAI_API_KEY, ...(env.OPENAI_BASE_URL ? { baseURL: env.OPENAI_BASE_URL } : {}), model: env.OPENAI_MODEL, timeoutMs: env.OPENAI_TIMEOUT_MS };
}

let defaults: AskOptions = {};

/**
 * Set the options answerQuestion uses when its caller passes none (the HTTP route and the MCP
 * tool): the server calls this once at start-up with the model configuration of its environment.
 */
export function configureAsk(options: AskOptions): void {
  defaults = { ...options };
}

export function askDefaults(): AskOptions {
  return defaults;
}
