import type { BuildWriter } from '../publish.ts';

/** How many files `write` added to the build: the output of a step whose writer does not count them. */
export async function countWritten(writer: BuildWriter, write: () => Promise<unknown>): Promise<number> {
  const before = Object.keys(writer.files).length;
  await write();
  return Object.keys(writer.files).length - before;
}
