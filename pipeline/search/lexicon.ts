import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import type { Lang, LexiconEntry, LexiconFile } from '../../lib/search/lexicon.ts';
import { stem, words } from '../../lib/search/text.ts';
import type { Commodity } from '../catalogue.ts';
import { LANGS, byLang } from '../../contract/languages.ts';

export const LEXICON_FILE = 'search-lexicon.yaml';

const Section = z.record(z.string().min(1), z.union([z.string().min(1), z.array(z.string().min(1)).min(1)])).optional();
export const LexiconYaml = byLang(Section);
export type LexiconYaml = z.infer<typeof LexiconYaml>;

/** Read data/search-lexicon.yaml; a missing file is an empty lexicon, a malformed one fails the build. */
export async function readLexiconYaml(dataDir: string): Promise<LexiconYaml> {
  const file = join(dataDir, LEXICON_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return {};
  }
  const parsed = LexiconYaml.safeParse(parse(text) ?? {});
  if (!parsed.success) throw new Error(`invalid search lexicon ${file}:\n${parsed.error.issues.map((i) => `  [${i.path.join('.')}] ${i.message}`).join('\n')}`);
  return parsed.data;
}

export interface CountryNameSource {
  iso3s: ReadonlySet<string>;
  namesOf3(iso3: string): Record<Lang, string>;
}

/**
 * The expansion table of a build: the domain lexicon, then every commodity alias and name
 * (→ the commodity's English words) and every country name in fr/de/es (→ its English name).
 * A phrase that is the same in English (gas, Iran, embargo) also counts as English, so it does
 * not make an English query look foreign.
 */
export function buildLexicon(yaml: LexiconYaml, catalogue: readonly Commodity[], countries?: CountryNameSource): LexiconFile {
  const entries = new Map<string, LexiconEntry>();
  const add = (phrase: string, to: readonly string[], lang: Lang) => {
    const key = words(phrase).join(' ');
    const target = to.flatMap((t) => words(t));
    if (!key || target.length === 0) return;
    const e = entries.get(key) ?? { to: [], langs: [] };
    for (const t of target) if (!e.to.includes(t)) e.to.push(t);
    if (!e.langs.includes(lang)) e.langs.push(lang);
    entries.set(key, e);
  };
  for (const lang of LANGS) {
    for (const [k, v] of Object.entries(yaml[lang] ?? {})) add(k, Array.isArray(v) ? v : [v], lang);
  }
  const englishWords = new Set<string>();
  for (const c of catalogue) {
    const target = [...new Set([...words(c.aliases.en[0] ?? c.code), ...words(c.names.en.replace(/\([^)]*\)/g, ''))])];
    for (const lang of LANGS) {
      for (const a of [...c.aliases[lang], c.names[lang].replace(/\([^)]*\)/g, '')]) add(a, target, lang);
    }
    for (const a of c.aliases.en) englishWords.add(words(a).join(' '));
  }
  if (countries) {
    for (const iso3 of countries.iso3s) {
      const n = countries.namesOf3(iso3);
      const en = words(n.en).join(' ');
      englishWords.add(en);
      for (const lang of ['fr', 'de', 'es'] as const) if (words(n[lang]).join(' ') !== en) add(n[lang], [n.en], lang);
    }
  }
  // Phrases that read the same in English.
  const same = (k: string, e: LexiconEntry) => e.to.join(' ') === k || (e.to.length === 1 && !k.includes(' ') && stem(e.to[0]!) === stem(k));
  for (const [k, e] of entries) if (!e.langs.includes('en') && (englishWords.has(k) || same(k, e))) e.langs.push('en');
  return { version: 1, entries: Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) };
}
