import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compiledServer } from './server-process.ts';

describe('compiledServer', () => {
  it('compiles an entry and its modules into one module at the same depth, so import.meta.dirname paths resolve as in the source', async () => {
    const root = mkdtempSync(join(tmpdir(), 'compiled-'));
    mkdirSync(join(root, 'bin'));
    mkdirSync(join(root, 'lib'));
    writeFileSync(join(root, 'lib/where.ts'), "import { resolve } from 'node:path';\nexport const repoRoot: string = resolve(import.meta.dirname, '..');\n");
    writeFileSync(
      join(root, 'bin/serve.ts'),
      "import { repoRoot } from '../lib/where.ts';\nconst n: number = 42;\nconsole.log(JSON.stringify({ repoRoot, n }));\n",
    );
    const out = await compiledServer(join(root, 'bin/serve.ts'));
    expect(out).toBe(join(root, '.server/serve.mjs'));
    // Only the module: the file it was written to first has been renamed.
    expect(readdirSync(join(root, '.server'))).toEqual(['serve.mjs']);
    expect(JSON.parse(execFileSync(process.execPath, [out], { encoding: 'utf8' }))).toEqual({ repoRoot: root, n: 42 });
  });

  it('throws on source that does not compile, for the supervisor to run the TypeScript instead', async () => {
    const root = mkdtempSync(join(tmpdir(), 'compiled-'));
    mkdirSync(join(root, 'bin'));
    writeFileSync(join(root, 'bin/serve.ts'), "import { x } from './missing.ts';\nconsole.log(x);\n");
    await expect(compiledServer(join(root, 'bin/serve.ts'))).rejects.toThrow(/missing\.ts/);
  });
});
