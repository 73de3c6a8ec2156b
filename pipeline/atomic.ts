import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';

/**
 * Replace a file so that a reader (or a build killed half-way) sees the old bytes or the new
 * ones, never a truncated file: write a temp file beside it, flush it, rename(2) it over.
 */
export async function writeFileAtomic(path: string, data: string | Buffer): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    const fh = await open(tmp, 'w');
    try {
      await fh.writeFile(data);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}
