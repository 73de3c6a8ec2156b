import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const REPO = resolve(import.meta.dirname, '..');
const run = promisify(execFile);
const depcruise = join(REPO, 'node_modules/.bin/depcruise');

/** Run the lint's dependency check (the same config) in `cwd`; its exit status and report. */
async function cruise(cwd: string, dirs: string[]): Promise<{ code: number; out: string }> {
  try {
    const r = await run(depcruise, ['--config', join(REPO, '.dependency-cruiser.cjs'), ...dirs], { cwd, maxBuffer: 8 << 20 });
    return { code: 0, out: r.stdout };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, out: e.stdout };
  }
}

describe('layers (docs/architecture.md), as npm run lint checks them', () => {
  const dir = mkdtempSync(join(tmpdir(), 'chokepoint-layers-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the repository has no layer violation and no cycle', async () => {
    const r = await cruise(REPO, ['contract', 'lib', 'pipeline', 'api', 'edge', 'bin', 'site/src', 'test', 'bench', 'eval']);
    expect(r.out).toContain('no dependency violations found');
    expect(r.code).toBe(0);
  }, 120_000);

  it('fails on an import that points up a layer, on pipeline ⇄ api, and on a cycle', async () => {
    cpSync(join(REPO, 'tsconfig.json'), join(dir, 'tsconfig.json'));
    for (const d of ['contract', 'lib', 'pipeline', 'api']) mkdirSync(join(dir, d), { recursive: true });
    writeFileSync(join(dir, 'contract/schema.ts'), "import { serve } from '../api/serve.ts';\nexport const x = serve;\n");
    writeFileSync(join(dir, 'api/serve.ts'), "import { step } from '../pipeline/step.ts';\nexport const serve = step;\n");
    writeFileSync(join(dir, 'pipeline/step.ts'), "import { a } from './a.ts';\nexport const step = a;\n");
    writeFileSync(join(dir, 'pipeline/a.ts'), "import { b } from './b.ts';\nexport const a = 1 + b;\n");
    writeFileSync(join(dir, 'pipeline/b.ts'), "import { a } from './a.ts';\nexport const b = a;\n");
    writeFileSync(join(dir, 'lib/ok.ts'), "import { x } from '../contract/schema.ts';\nexport const ok = x;\n");
    const r = await cruise(dir, ['contract', 'lib', 'pipeline', 'api']);
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/contract-is-the-bottom: contract\/schema\.ts → api\/serve\.ts/);
    expect(r.out).toMatch(/api-not-pipeline: api\/serve\.ts → pipeline\/step\.ts/);
    expect(r.out).toMatch(/no-circular: pipeline\/(a|b)\.ts/);
    // lib → contract is the allowed direction.
    expect(r.out).not.toMatch(/lib\/ok\.ts/);
  }, 120_000);
});
