/**
 * The words for the values of the contract's enums, in each language of the service: the one
 * translation the site (as labels), ask (in its answers) and MCP (in its texts) read. Each table is
 * keyed by the enum and by `Lang`, so a value or a language added to the contract does not compile
 * until it has its word here (contract/extensions.test.ts).
 *
 * Typed, not inferred: a value missing here is an error here, and every read of a table stays valid.
 *
 * Written as they stand inside a sentence: lower case but for German nouns; a label capitalises
 * them (`labels`). English uses the enum values themselves, so an English text (MCP's) names the
 * value an agent filters by.
 */
import type { z } from 'zod';
import type { CommodityGroup } from '../../contract/common.ts';
import type { EventCategory, EventEffect, ScenarioStatus } from '../../contract/content.ts';
import type { Lang } from '../../contract/languages.ts';
import type { StressBand } from '../../contract/stress.ts';

/** The stress bands (0–25, 25–50, 50–75, 75–100); the Romance words agree with tension/tensión. */
export const BAND_WORDS: Readonly<Record<Lang, Record<StressBand, string>>> = {
  en: { low: 'low', moderate: 'moderate', high: 'high', severe: 'severe' },
  fr: { low: 'faible', moderate: 'modérée', high: 'élevée', severe: 'sévère' },
  de: { low: 'niedrig', moderate: 'mäßig', high: 'hoch', severe: 'schwer' },
  es: { low: 'baja', moderate: 'moderada', high: 'alta', severe: 'grave' },
};

/** A scenario's status. */
export const STATUS_WORDS: Readonly<Record<Lang, Record<ScenarioStatus, string>>> = {
  en: { monitoring: 'monitoring', elevated: 'elevated', active: 'active', resolved: 'resolved', dismissed: 'dismissed' },
  fr: { monitoring: 'sous surveillance', elevated: 'en hausse', active: 'en cours', resolved: 'résolu', dismissed: 'écarté' },
  de: { monitoring: 'unter Beobachtung', elevated: 'erhöht', active: 'aktiv', resolved: 'beendet', dismissed: 'verworfen' },
  es: { monitoring: 'en vigilancia', elevated: 'en alza', active: 'activo', resolved: 'resuelto', dismissed: 'descartado' },
};

/** An event's category. */
export const CATEGORY_WORDS: Readonly<Record<Lang, Record<EventCategory, string>>> = {
  en: { conflict: 'conflict', sanction: 'sanction', catastrophe: 'catastrophe', policy: 'policy', infrastructure: 'infrastructure' },
  fr: { conflict: 'conflit', sanction: 'sanction', catastrophe: 'catastrophe', policy: 'politique', infrastructure: 'infrastructure' },
  de: { conflict: 'Konflikt', sanction: 'Sanktion', catastrophe: 'Katastrophe', policy: 'Politik', infrastructure: 'Infrastruktur' },
  es: { conflict: 'conflicto', sanction: 'sanción', catastrophe: 'catástrofe', policy: 'política', infrastructure: 'infraestructura' },
};

/**
 * An event's effect on supply, as a tag. Ask's answers say it with a verb ("tightening supply",
 * "resserre l’offre": its packs' `plan.effect`), which is a phrase of the sentence, not this word.
 */
export const EFFECT_WORDS: Readonly<Record<Lang, Record<EventEffect, string>>> = {
  en: { tightening: 'tightening', easing: 'easing' },
  fr: { tightening: 'resserrement', easing: 'assouplissement' },
  de: { tightening: 'verschärfend', easing: 'entlastend' },
  es: { tightening: 'tensiona', easing: 'alivia' },
};

/** A commodity group. */
export const GROUP_WORDS: Readonly<Record<Lang, Record<z.infer<typeof CommodityGroup>, string>>> = {
  en: { energy: 'energy', metals: 'metals', agri: 'agriculture' },
  fr: { energy: 'énergie', metals: 'métaux', agri: 'agriculture' },
  de: { energy: 'Energie', metals: 'Metalle', agri: 'Agrarrohstoffe' },
  es: { energy: 'energía', metals: 'metales', agri: 'agricultura' },
};

/** The words of one table as labels, the first letter capitalised in the language: `en cours` → `En cours`. */
export const labels = <K extends string>(words: Readonly<Record<K, string>>, lang: Lang): Record<K, string> =>
  Object.fromEntries(Object.entries<string>(words).map(([k, w]) => [k, w.charAt(0).toLocaleUpperCase(lang) + w.slice(1)])) as Record<K, string>;
