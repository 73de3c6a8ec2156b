import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Adding a value to a contract enum must fail to compile at every table that has to know it, and
 * nowhere else (issue 36). Each case compiles the project as it is, with one value added in the
 * contract's source text, and lists the files with errors: a table that silently falls back (a
 * `Record<string, …>`, a `?? default`) would be missing from the list; a read that breaks instead of
 * its table would be an extra file.
 */
const ROOT = resolve(import.meta.dirname, '..');

const CASES: { name: string; file: string; from: string; to: string; mustChange: string[] }[] = [
  {
    name: "a language ('it')",
    file: 'contract/languages.ts',
    from: "export const LANGS = ['en', 'fr', 'de', 'es'] as const;",
    to: "export const LANGS = ['en', 'fr', 'de', 'es', 'it'] as const;",
    // Its ask pack (a new file, registered in PACKS), its names, locale, number spacing, stop words,
    // figure words, EU name, words for the enums' values (terms), digest words and site catalogues; three test fixtures that spell out
    // every translation of an event or a country name.
    mustChange: [
      'api/ask/lang/index.ts',
      'contract/countries.ts',
      'contract/languages.ts',
      'lib/format.ts',
      'lib/i18n/every.ts',
      'lib/i18n/terms.ts',
      'lib/search/text.ts',
      'pipeline/content/figures.ts',
      'pipeline/discovery/feeds.test.ts',
      'pipeline/discovery/stage.test.ts',
      'pipeline/names.ts',
      'pipeline/search/search.test.ts',
      'pipeline/steps/digest.ts',
      'site/src/i18n/chart-messages.ts',
      'site/src/i18n/messages.ts',
    ],
  },
  {
    name: "a source id ('new-source')",
    file: 'contract/sources.ts',
    from: "  'nyfed-gscpi',\n] as const;",
    to: "  'nyfed-gscpi',\n  'new-source',\n] as const;",
    // Its adapter, and the site's name for its data (the other languages follow the English keys).
    mustChange: ['pipeline/sources/registry.ts', 'site/src/i18n/en.ts'],
  },
  {
    name: "an event category ('newcat')",
    file: 'contract/content.ts',
    from: "'policy', 'infrastructure'] as const;",
    to: "'policy', 'infrastructure', 'newcat'] as const;",
    // Its weight and half-life, its word in each language (site, ask and MCP), the words a question
    // names it by in each language pack and its rank among them.
    mustChange: [
      'api/ask/intent.ts',
      'api/ask/lang/de.ts',
      'api/ask/lang/en.ts',
      'api/ask/lang/es.ts',
      'api/ask/lang/fr.ts',
      'lib/i18n/terms.ts',
      'pipeline/steps/stress.ts',
    ],
  },
];

function parsedConfig(): ts.ParsedCommandLine {
  const file = join(ROOT, 'tsconfig.json');
  const { config } = ts.readConfigFile(file, ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config, ts.sys, ROOT);
}

/** The files (relative to the repository) with compile errors when `file`'s text has `from` replaced by `to`. */
function filesWithErrors(file: string, from: string, to: string, old?: ts.Program): { files: string[]; program: ts.Program } {
  const config = parsedConfig();
  const target = join(ROOT, file);
  const text = readFileSync(target, 'utf8');
  if (!text.includes(from)) throw new Error(`${file} no longer holds ${JSON.stringify(from)}: update this test`);
  const host = ts.createCompilerHost(config.options);
  const read = host.readFile.bind(host);
  host.readFile = (f) => (resolve(f) === target ? text.replace(from, to) : read(f));
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (f, lang, onError, create) =>
    resolve(f) === target ? ts.createSourceFile(f, text.replace(from, to), lang, true) : getSourceFile(f, lang, onError, create);
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, host, ...(old ? { oldProgram: old } : {}) });
  const files = new Set<string>();
  for (const d of ts.getPreEmitDiagnostics(program)) if (d.file) files.add(relative(ROOT, d.file.fileName));
  return { files: [...files].sort(), program };
}

describe('a new value of a contract enum fails to compile where a table must know it, and nowhere else', () => {
  it.each(CASES)(
    '$name',
    ({ file, from, to, mustChange }) => {
      expect(dirname(file)).toBe('contract');
      expect(filesWithErrors(file, from, to).files).toEqual(mustChange);
    },
    600_000,
  );
});
