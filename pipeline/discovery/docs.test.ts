import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../contract/api.ts';
import { TOOLS } from '../../contract/tools.ts';
import { DISCOVERY_FILES } from './stage.ts';

describe('docs/api.md', async () => {
  const md = await readFile(new URL('../../docs/api.md', import.meta.url), 'utf8');

  it('covers every route, every tool and every discovery file', () => {
    for (const r of ROUTES) expect(md, r.path).toContain(`${r.method.toUpperCase()} ${r.path}`);
    for (const t of TOOLS) expect(md, t.name).toContain(`\`${t.name}\``);
    for (const path of Object.keys(DISCOVERY_FILES)) {
      const shown = path.startsWith('feeds/briefings-') ? '/feeds/briefings-{lang}.atom' : `/${path}`;
      expect(md, path).toContain(shown);
    }
  });
});
