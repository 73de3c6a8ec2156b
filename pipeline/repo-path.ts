import { join } from 'node:path';

/** A path inside the repository (the code, package.json, docs/), wherever the build runs from. */
export const repoPath = (...p: string[]) => join(import.meta.dirname, '..', ...p);
