import type { CommoditySheet } from '../../contract/commodities.ts';
import { eventText, type Briefing, type Event } from '../../contract/content.ts';
import { isoWeekId } from '../../contract/dates.ts';
import type { Db } from '../db.ts';

import { LANGS, type Lang } from '../../contract/languages.ts';
import { BAND_WORDS } from '../../lib/i18n/terms.ts';

interface Mover {
  slug: string;
  names: Record<Lang, string>;
  from: string;
  to: string;
  change_pct: number;
  basis: 'week' | 'month';
}
interface StorageMove {
  country: string;
  from: string;
  to: string;
  fill_from: number;
  fill_to: number;
}

export interface DigestInput {
  today: string;
  sheets: readonly CommoditySheet[];
  events: readonly Event[];
  /** Stress indexes of the previously published build, to name the movers since then. */
  previousStress: ReadonlyMap<string, number | null>;
}

/** Price moves: daily series week on week, monthly series month on month, at their newest observation, largest first. */
async function priceMovers(db: Db, sheets: readonly CommoditySheet[]): Promise<Mover[]> {
  const rows = await db.all<{ slug: string; frequency: string; d1: string; v1: number; d0: string; v0: number }>(`
    WITH l AS (SELECT o.slug, s.frequency, max(o.date) AS d1, arg_max(o.value, o.date) AS v1 FROM price_obs o JOIN price_series s USING (slug)
               WHERE s.frequency IN ('daily', 'monthly') GROUP BY 1, 2),
    p AS (SELECT l.slug, max(o.date) AS d0, arg_max(o.value, o.date) AS v0 FROM l JOIN price_obs o ON o.slug = l.slug
          AND o.date <= l.d1 - CASE l.frequency WHEN 'daily' THEN INTERVAL 7 DAY ELSE INTERVAL 1 MONTH END GROUP BY 1)
    SELECT l.slug, l.frequency, strftime(l.d1, '%Y-%m-%d') AS d1, l.v1, strftime(p.d0, '%Y-%m-%d') AS d0, p.v0 FROM l JOIN p USING (slug) WHERE p.v0 > 0`);
  const names = new Map(sheets.map((s) => [s.slug, s.names as Record<Lang, string>]));
  return rows
    .map((r) => ({
      slug: r.slug,
      names: names.get(r.slug)!,
      from: r.d0,
      to: r.d1,
      change_pct: (r.v1 / r.v0 - 1) * 100,
      basis: r.frequency === 'daily' ? ('week' as const) : ('month' as const),
    }))
    .sort((a, b) => Math.abs(b.change_pct) - Math.abs(a.change_pct));
}

async function storageMoves(db: Db): Promise<StorageMove[]> {
  return db.all<StorageMove>(`
    WITH l AS (SELECT country, max(date) AS d1, arg_max(fill_pct, date) AS f1 FROM agsi_storage WHERE country IN ('eu', 'de') GROUP BY 1)
    SELECT l.country, strftime(max(a.date), '%Y-%m-%d') AS "from", strftime(l.d1, '%Y-%m-%d') AS "to", arg_max(a.fill_pct, a.date) AS fill_from, l.f1 AS fill_to
    FROM l JOIN agsi_storage a ON a.country = l.country AND a.date <= l.d1 - INTERVAL 7 DAY GROUP BY l.country, l.d1, l.f1 ORDER BY l.country = 'eu' DESC`);
}

/** The words of a digest in English; each language has the same. */
const EN = {
  title: (w: string) => `Weekly data digest, week ${w}`,
  summary: (n: number) =>
    `What moved in the published data: the largest price changes, gas storage, the stress index and ${n === 1 ? 'one new event' : `${n} new events`}.`,
  prices: 'Prices',
  storage: 'Gas storage',
  stress: 'Stress index',
  events: 'Events',
  move: (m: Mover, pct: string, to: string, from: string) =>
    `- **${m.names.en}**: ${pct} ${m.basis === 'week' ? 'on the week' : 'on the month'} (${from} → ${to})`,
  fill: (name: string, f1: string, f0: string, to: string, from: string) => `- ${name}: ${f1} full on ${to}, against ${f0} on ${from}.`,
  eu: 'EU',
  de: 'Germany',
  top: 'Highest readings:',
  moved: 'Largest changes since the previous build:',
  none: 'No index moved since the previous build.',
  noPrices: (d: string | null) => `No price in the published data has a new observation this week${d ? `; the newest is from ${d}` : ''}.`,
  noStorage: (d: string) => `No new gas storage reading this week; the newest is from ${d}.`,
  noEvents: (d: string | null) => `No new event was recorded in the past seven days${d ? `; the latest dates from ${d}` : ''}.`,
  note: 'This digest is written by the pipeline from the published data at every build; each figure links back to its source through the API.',
};

const T: Readonly<Record<Lang, typeof EN>> = {
  en: EN,
  fr: {
    title: (w: string) => `Synthèse hebdomadaire des données, semaine ${w}`,
    summary: (n: number) =>
      `Ce qui a bougé dans les données publiées : les plus fortes variations de prix, le stockage de gaz, l'indice de tension et ${n === 1 ? 'un nouvel événement' : `${n} nouveaux événements`}.`,
    prices: 'Prix',
    storage: 'Stockage de gaz',
    stress: 'Indice de tension',
    events: 'Événements',
    move: (m: Mover, pct: string, to: string, from: string) =>
      `- **${m.names.fr}** : ${pct} ${m.basis === 'week' ? 'sur la semaine' : 'sur le mois'} (${from} → ${to})`,
    fill: (name: string, f1: string, f0: string, to: string, from: string) => `- ${name} : rempli à ${f1} le ${to}, contre ${f0} le ${from}.`,
    eu: 'UE',
    de: 'Allemagne',
    top: 'Niveaux les plus élevés :',
    moved: 'Plus fortes variations depuis la construction précédente :',
    none: "Aucun indice n'a bougé depuis la construction précédente.",
    noPrices: (d: string | null) => `Aucun prix des données publiées n'a de nouvelle observation cette semaine${d ? ` ; la plus récente date du ${d}` : ''}.`,
    noStorage: (d: string) => `Aucune nouvelle mesure du stockage de gaz cette semaine ; la plus récente date du ${d}.`,
    noEvents: (d: string | null) => `Aucun nouvel événement n'a été enregistré ces sept derniers jours${d ? ` ; le plus récent date du ${d}` : ''}.`,
    note: "Cette synthèse est rédigée par le pipeline à partir des données publiées, à chaque construction ; chaque chiffre renvoie à sa source via l'API.",
  },
  de: {
    title: (w: string) => `Wöchentlicher Datenüberblick, Woche ${w}`,
    summary: (n: number) =>
      `Was sich in den veröffentlichten Daten bewegt hat: die größten Preisänderungen, die Gasspeicher, der Stressindex und ${n === 1 ? 'ein neues Ereignis' : `${n} neue Ereignisse`}.`,
    prices: 'Preise',
    storage: 'Gasspeicher',
    stress: 'Stressindex',
    events: 'Ereignisse',
    move: (m: Mover, pct: string, to: string, from: string) =>
      `- **${m.names.de}**: ${pct} ${m.basis === 'week' ? 'zur Vorwoche' : 'zum Vormonat'} (${from} → ${to})`,
    fill: (name: string, f1: string, f0: string, to: string, from: string) => `- ${name}: am ${to} zu ${f1} gefüllt, gegenüber ${f0} am ${from}.`,
    eu: 'EU',
    de: 'Deutschland',
    top: 'Höchste Werte:',
    moved: 'Größte Änderungen seit dem vorigen Build:',
    none: 'Seit dem vorigen Build hat sich kein Index bewegt.',
    noPrices: (d: string | null) =>
      `Kein Preis in den veröffentlichten Daten hat diese Woche eine neue Beobachtung${d ? `; die jüngste stammt vom ${d}` : ''}.`,
    noStorage: (d: string) => `Diese Woche kein neuer Gasspeicherstand; der jüngste stammt vom ${d}.`,
    noEvents: (d: string | null) => `In den vergangenen sieben Tagen wurde kein neues Ereignis erfasst${d ? `; das jüngste stammt vom ${d}` : ''}.`,
    note: 'Dieser Überblick wird bei jedem Build von der Pipeline aus den veröffentlichten Daten geschrieben; jede Zahl führt über die API zu ihrer Quelle.',
  },
  es: {
    title: (w: string) => `Resumen semanal de datos, semana ${w}`,
    summary: (n: number) =>
      `Lo que se movió en los datos publicados: los mayores cambios de precio, el almacenamiento de gas, el índice de tensión y ${n === 1 ? 'un evento nuevo' : `${n} eventos nuevos`}.`,
    prices: 'Precios',
    storage: 'Almacenamiento de gas',
    stress: 'Índice de tensión',
    events: 'Eventos',
    move: (m: Mover, pct: string, to: string, from: string) =>
      `- **${m.names.es}**: ${pct} ${m.basis === 'week' ? 'en la semana' : 'en el mes'} (${from} → ${to})`,
    fill: (name: string, f1: string, f0: string, to: string, from: string) => `- ${name}: al ${f1} el ${to}, frente al ${f0} el ${from}.`,
    eu: 'UE',
    de: 'Alemania',
    top: 'Lecturas más altas:',
    moved: 'Mayores cambios desde la compilación anterior:',
    none: 'Ningún índice se movió desde la compilación anterior.',
    noPrices: (d: string | null) => `Ningún precio de los datos publicados tiene una observación nueva esta semana${d ? `; la más reciente es del ${d}` : ''}.`,
    noStorage: (d: string) => `Ninguna lectura nueva del almacenamiento de gas esta semana; la más reciente es del ${d}.`,
    noEvents: (d: string | null) => `No se registró ningún evento nuevo en los últimos siete días${d ? `; el más reciente es del ${d}` : ''}.`,
    note: 'Este resumen lo redacta el pipeline a partir de los datos publicados en cada compilación; cada cifra remite a su fuente a través de la API.',
  },
};

/**
 * The weekly data digest, written by the pipeline at every build in the four languages from
 * what the data say (no figure is typed): one per ISO week, refreshed by each build of the week,
 * so a current briefing always exists.
 */
export async function weeklyDigest(db: Db, x: DigestInput): Promise<Briefing[]> {
  const week = isoWeekId(x.today);
  const weekAgo = new Date(Date.parse(x.today) - 7 * 86_400_000).toISOString().slice(0, 10);
  // Only what changed within the week: a move whose newest observation is older (a monthly series
  // that ended last year) is not news of this week, whatever its size.
  const inWeek = (d: string) => d > weekAgo && d <= x.today;
  const allMovers = await priceMovers(db, x.sheets);
  const movers = allMovers.filter((m) => inWeek(m.to)).slice(0, 5);
  const newestPrice = allMovers.reduce<string | null>((a, m) => (a === null || m.to > a ? m.to : a), null);
  const allStorage = await storageMoves(db);
  const storage = allStorage.filter((m) => inWeek(m.to));
  const fresh = x.events.filter((e) => e.date > weekAgo && e.date <= x.today);
  const ranked = x.sheets
    .filter((s) => s.stress_index !== null)
    .sort((a, b) => b.stress_index! - a.stress_index!)
    .slice(0, 5);
  const changed = x.sheets
    .map((s) => ({ s, prev: x.previousStress.get(s.slug) }))
    .filter((m) => m.prev != null && m.s.stress_index !== null && m.s.stress_index !== m.prev)
    .sort((a, b) => Math.abs(b.s.stress_index! - b.prev!) - Math.abs(a.s.stress_index! - a.prev!))
    .slice(0, 5);

  return LANGS.map((lang) => {
    const t = T[lang];
    const num = (v: number, d = 1) => new Intl.NumberFormat(lang, { minimumFractionDigits: d, maximumFractionDigits: d }).format(v);
    const pct = (v: number) => `${v > 0 ? '+' : v < 0 ? '−' : '±'}${num(Math.abs(v))} %`;
    const lines: string[] = [
      `## ${t.prices}`,
      '',
      ...(movers.length ? movers.map((m) => t.move(m, pct(m.change_pct), m.to, m.from)) : [t.noPrices(newestPrice)]),
      '',
    ];
    if (!storage.length && allStorage.length)
      lines.push(
        `## ${t.storage}`,
        '',
        t.noStorage(
          allStorage
            .map((m) => m.to)
            .sort()
            .at(-1)!,
        ),
        '',
      );
    if (storage.length) {
      lines.push(
        `## ${t.storage}`,
        '',
        ...storage.map((s) => t.fill(s.country === 'eu' ? t.eu : t.de, `${num(s.fill_to)} %`, `${num(s.fill_from)} %`, s.to, s.from)),
        '',
      );
    }
    lines.push(`## ${t.stress}`, '', t.top, '', ...ranked.map((s) => `- ${s.names[lang]} — ${num(s.stress_index!)} (${BAND_WORDS[lang][s.stress_band!]})`), '');
    lines.push(changed.length ? t.moved : t.none, '');
    for (const m of changed) lines.push(`- ${m.s.names[lang]} — ${num(m.prev!)} → ${num(m.s.stress_index!)}`);
    lines.push('', `## ${t.events}`, '');
    if (fresh.length) for (const e of fresh) lines.push(`- ${e.date} · ${e.category}: ${eventText(e, lang).title}`);
    else lines.push(t.noEvents(x.events[0]?.date ?? null));
    lines.push('', `_${t.note}_`);
    return {
      id: `weekly-digest-${week}-${lang}`,
      lang,
      translation_key: `weekly-digest-${week}`,
      title: t.title(week.toUpperCase()),
      summary: t.summary(fresh.length),
      body: lines.join('\n').replace(/\n{3,}/g, '\n\n'),
      published_at: x.today,
      commodities: [...new Set([...movers.map((m) => m.slug), ...ranked.map((s) => s.slug)])].sort(),
      countries: storage.some((s) => s.country === 'de') ? ['DEU'] : [],
      series: [
        ...storage.map((s) => ({ metric: 'gas_storage' as const, commodity: null, area: s.country, countries: [], dates: [s.from, s.to] })),
        ...movers.map((m) => ({ metric: 'price' as const, commodity: m.slug, area: null, countries: [], dates: [m.from, m.to] })),
      ],
    };
  });
}
