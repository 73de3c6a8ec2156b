import { rm } from 'node:fs/promises';
import type { TestProject } from 'vitest/node';
import { runBuild } from '../pipeline/build.ts';
import { DATA_DIR, SOURCES_DIR, tempDir, testEffects } from './support.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    distDir: string;
  }
}

/** One real-data build for every test file that serves it (the API, MCP and site suites). */
export default async function setup(project: TestProject) {
  const distDir = await tempDir('dist');
  await runBuild({ sourcesDir: SOURCES_DIR, dataDir: DATA_DIR, outDir: distDir, baseUrl: 'https://chokepoint.test' }, testEffects());
  project.provide('distDir', distDir);
  return async () => {
    await rm(distDir, { recursive: true, force: true });
  };
}
