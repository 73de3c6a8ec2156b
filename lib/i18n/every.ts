/**
 * How often the data is rebuilt, in each language of the service: the one phrasing of the interval
 * the operator set (REBUILD_EVERY, `--every`) for every text that states it — the site's footer,
 * the OpenAPI description, llms.txt. Whole hours, then whole minutes, then seconds.
 */
import { DEFAULT_REBUILD_EVERY_MS } from '../../contract/limits.ts';
import type { Lang } from '../../contract/languages.ts';
import { num } from '../format.ts';

type Unit = 'hour' | 'minute' | 'second';
const UNIT_MS: Record<Unit, number> = { hour: 3_600_000, minute: 60_000, second: 1000 };

/** "every hour", "every 15 minutes": the one-unit form, and the counted form given the number as written. */
const PHRASE: Record<Lang, Record<Unit, { one: string; many: (n: string) => string }>> = {
  en: {
    hour: { one: 'every hour', many: (n) => `every ${n} hours` },
    minute: { one: 'every minute', many: (n) => `every ${n} minutes` },
    second: { one: 'every second', many: (n) => `every ${n} seconds` },
  },
  fr: {
    hour: { one: 'toutes les heures', many: (n) => `toutes les ${n} heures` },
    minute: { one: 'toutes les minutes', many: (n) => `toutes les ${n} minutes` },
    second: { one: 'toutes les secondes', many: (n) => `toutes les ${n} secondes` },
  },
  de: {
    hour: { one: 'jede Stunde', many: (n) => `alle ${n} Stunden` },
    minute: { one: 'jede Minute', many: (n) => `alle ${n} Minuten` },
    second: { one: 'jede Sekunde', many: (n) => `alle ${n} Sekunden` },
  },
  es: {
    hour: { one: 'cada hora', many: (n) => `cada ${n} horas` },
    minute: { one: 'cada minuto', many: (n) => `cada ${n} minutos` },
    second: { one: 'cada segundo', many: (n) => `cada ${n} segundos` },
  },
};

/**
 * How often the data is rebuilt, in words: 900000 → "every 15 minutes" (fr: toutes les 15 minutes),
 * 3600000 → "every hour" (de: jede Stunde). `ms` as a build is given it (BuildOptions.rebuildEveryMs):
 * undefined is the default interval, null no schedule (REBUILD_EVERY=off), which gives null: nothing to state.
 */
export function rebuildEvery(ms: number | null | undefined, lang: Lang = 'en'): string | null {
  if (ms === null) return null;
  const every = ms ?? DEFAULT_REBUILD_EVERY_MS;
  const unit = (['hour', 'minute', 'second'] as const).find((u) => every % UNIT_MS[u] === 0) ?? 'second';
  const n = Math.max(1, Math.round(every / UNIT_MS[unit]));
  return n === 1 ? PHRASE[lang][unit].one : PHRASE[lang][unit].many(num(n, 0, lang));
}
