import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { repoPath } from './repo-path.ts';

const REPO = repoPath();
/** Files of these kinds in a folder a step names are modules esbuild follows; the rest are only hashed. */
const MODULE = /\.(ts|mts|js|mjs|astro)$/;

/**
 * Astro compiles .astro files, esbuild cannot: it is shown their import statements only (front
 * matter and scripts), each as a side-effect import so that it is followed whatever it names.
 */
const astroImports: Plugin = {
  name: 'astro-imports',
  setup(b) {
    b.onLoad({ filter: /\.astro$/ }, async ({ path }) => {
      const text = await readFile(path, 'utf8');
      const specs = [...text.matchAll(/^\s*import\s+(type\s+)?(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)].filter((m) => !m[1]).map((m) => m[2]!);
      return { contents: specs.map((s) => `import ${JSON.stringify(s)};`).join('\n'), loader: 'ts' };
    });
    // Styles and assets change the pages too: hashed, not parsed.
    b.onLoad({ filter: /\.(css|svg|png|woff2?|md|txt)$/ }, () => ({ contents: '', loader: 'empty' }));
  },
};

/** Every file of a folder (or the file itself), repository-relative, sorted. */
async function filesUnder(path: string): Promise<string[]> {
  const entries = await readdir(join(REPO, path), { withFileTypes: true, recursive: true }).catch(() => null);
  if (!entries) return [path];
  return entries
    .filter((e) => e.isFile() && !e.name.startsWith('.'))
    .map((e) => relative(REPO, join(e.parentPath, e.name)))
    .filter((f) => !f.split('/').some((part) => part === 'node_modules' || part.startsWith('.')))
    .sort();
}

/**
 * The repository files a module runs: itself and every local module it imports, at any depth,
 * dynamic imports included (esbuild's metafile; packages are left out, package-lock.json stands
 * for them). Type-only imports change no output and are not followed.
 */
export async function importClosure(entries: readonly string[]): Promise<string[]> {
  const r = await build({
    // One bundle importing every entry: one parse of what they share.
    stdin: { contents: entries.map((e) => `import ${JSON.stringify(`./${e}`)};`).join('\n'), resolveDir: REPO, loader: 'ts' },
    absWorkingDir: REPO,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
    plugins: [astroImports],
  });
  return Object.keys(r.metafile.inputs)
    .filter((f) => f !== '<stdin>')
    .sort();
}

/** The closure of each set of entries, computed once per process: the modules a process runs are those it loaded. */
const closures = new Map<string, Promise<string[]>>();

/**
 * The code a cached step runs, as one SHA-256: the bytes of its module's import closure, of the
 * files and folders it names besides (code it runs without importing it, such as the Astro
 * project, and files it reads), and of package-lock.json (the packages' versions). The closure is
 * found once per process; the bytes are read each time, as Astro reads its project afresh.
 */
export async function codeHash(module: string, also: readonly string[] = []): Promise<string> {
  const extra = (await Promise.all(also.map(filesUnder))).flat();
  const entries = [relative(REPO, module), ...extra.filter((f) => MODULE.test(f))];
  const id = entries.join('\0');
  let closure = closures.get(id);
  if (!closure) closures.set(id, (closure = importClosure(entries)));
  const files = [...new Set([...(await closure), ...extra, 'package-lock.json'])].sort();
  const hash = createHash('sha256');
  for (const f of files)
    hash
      .update(f)
      .update('\0')
      .update(await readFile(join(REPO, f)))
      .update('\0');
  return hash.digest('hex');
}
