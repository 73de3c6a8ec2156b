import { execFileSync } from 'node:child_process';
import { link, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test/support.ts';
import { measureDist } from './disk-use.ts';

describe('disk use of dist/', () => {
  it('counts what du(1) counts: allocated blocks, a hard-linked file once, symlinks not followed', async () => {
    const dist = await tempDir('disk');
    await mkdir(join(dist, 'builds', 'b1'), { recursive: true });
    await mkdir(join(dist, 'builds', 'b2'), { recursive: true });
    await mkdir(join(dist, 'builds', '.tmp-b3-1-x'), { recursive: true });
    await writeFile(join(dist, 'builds', 'b1', 'big.json'), Buffer.alloc(200_000, 'x'));
    // The next build shares the unchanged file by a hard link, as the pipeline does.
    await link(join(dist, 'builds', 'b1', 'big.json'), join(dist, 'builds', 'b2', 'big.json'));
    await writeFile(join(dist, 'builds', 'b2', 'new.json'), Buffer.alloc(50_000, 'y'));
    await symlink(join('builds', 'b2'), join(dist, 'current'));
    const d = await measureDist(dist, new Date('2026-11-27T12:00:00Z'));
    const du = Number(execFileSync('du', ['-s', '-B1', dist], { encoding: 'utf8' }).split('\t')[0]);
    expect(d).toEqual({ dist_bytes: du, builds: 2, measured_at: '2026-11-27T12:00:00.000Z' });
    expect(d.dist_bytes).toBeGreaterThanOrEqual(250_000);
    expect(d.dist_bytes).toBeLessThan(2 * 200_000);
  });
});
