import { mkdir, readdir, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILD_IN_USE_MS } from '../contract/manifest.ts';
import { tempDir } from '../test/support.ts';
import { KEEP_BUILDS, pruneBuilds } from './publish.ts';

/** Build folders on a real file system, each last modified `ageMin` minutes ago. */
async function distWith(builds: [id: string, ageMin: number][], current: string): Promise<string> {
  const out = await tempDir('prune');
  for (const [id, ageMin] of builds) {
    const dir = join(out, 'builds', id);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'manifest.json'), '{}');
    const at = new Date(Date.now() - ageMin * 60_000);
    await utimes(dir, at, at);
  }
  await symlink(join('builds', current), join(out, 'current'));
  return out;
}
const left = async (out: string) => (await readdir(join(out, 'builds'))).sort();

describe('pruning old builds', () => {
  it(`keeps the newest ${KEEP_BUILDS}, however often builds come`, async () => {
    const ids = Array.from({ length: 8 }, (_, i) => `20261127T10${String(i).padStart(2, '0')}00Z-aaaa`);
    const out = await distWith(
      ids.map((id, i) => [id, 60 - i]),
      ids.at(-1)!,
    );
    expect(await pruneBuilds(out, KEEP_BUILDS)).toEqual(ids.slice(0, 5));
    expect(await left(out)).toEqual(ids.slice(5));
  });

  it('never removes the current build, the one just replaced, or one in use (marked by a server)', async () => {
    const ids = ['20261127T100000Z-a', '20261127T110000Z-b', '20261127T120000Z-c', '20261127T130000Z-d', '20261127T140000Z-e', '20261127T150000Z-f'];
    // b was marked a minute ago by a server still serving it; a is `current` (rolled back to);
    // c was just replaced; d, e and f are the newest three.
    const inUse = BUILD_IN_USE_MS / 60_000 / 2;
    const out = await distWith(
      [
        [ids[0]!, 300],
        [ids[1]!, inUse],
        [ids[2]!, 200],
        [ids[3]!, 100],
        [ids[4]!, 90],
        [ids[5]!, 80],
      ],
      ids[0]!,
    );
    expect(await pruneBuilds(out, KEEP_BUILDS, new Set([ids[2]!]))).toEqual([]);
    // Once b is no longer marked and c no longer the one replaced, both go.
    const old = new Date(Date.now() - 2 * BUILD_IN_USE_MS);
    await utimes(join(out, 'builds', ids[1]!), old, old);
    expect(await pruneBuilds(out, KEEP_BUILDS)).toEqual([ids[1], ids[2]]);
    expect(await left(out)).toEqual([ids[0], ...ids.slice(3)]);
  });

  it('leaves folders being written (.tmp-…) to the leftovers sweep', async () => {
    const out = await distWith([['20261127T100000Z-a', 300]], '20261127T100000Z-a');
    await mkdir(join(out, 'builds', '.tmp-20261127T110000Z-b-123-x'));
    expect(await pruneBuilds(out, 0)).toEqual([]);
  });
});
