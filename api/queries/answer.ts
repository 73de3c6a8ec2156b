import type { Meta } from '../../contract/common.ts';
import type { StaticFile } from '../build.ts';

/** The meta of an answer: Meta, and on the list routes with defaulted parameters the effective parameters (`query`). */
export type AnswerMeta = Meta & { query?: Readonly<Record<string, string | number>> };

/** `{ data, meta }`: what a data route answers. */
export interface Envelope<T> {
  data: T;
  meta: AnswerMeta;
}

/**
 * The answer of a query, shared by the HTTP routes and the MCP tools. When the answer is exactly
 * a published file, `file` holds it: HTTP sends its bytes as they are (with the file's ETag),
 * and `envelope()` parses it only when someone needs the values (an MCP tool, a CSV export).
 */
export interface Answer<T> {
  readonly file?: StaticFile;
  envelope(): Envelope<T>;
}

const decoder = new TextDecoder();

/** An answer that is a published file. */
export function fromFile<T>(file: StaticFile): Answer<T> {
  return { file, envelope: () => JSON.parse(decoder.decode(file.body)) as Envelope<T> };
}

/** An answer computed for this query. */
export function computed<T>(data: T, meta: AnswerMeta): Answer<T> {
  return { envelope: () => ({ data, meta }) };
}
