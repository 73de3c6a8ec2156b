/**
 * The published editorial records: events, scenarios and briefings, as the API serves them
 * (snake_case; each field described, since the OpenAPI document is generated from these schemas).
 * The files under data/ are read and checked by pipeline/content/load.ts, which produces these.
 */
import { z } from 'zod';
import { DateString } from './common.ts';
import { LANGS, langList, type Lang } from './languages.ts';

export const EVENT_CATEGORIES = ['conflict', 'sanction', 'catastrophe', 'policy', 'infrastructure'] as const;
/** Which way an event moves supply: tightening raises stress, easing lowers it. */
export const EVENT_EFFECTS = ['tightening', 'easing'] as const;
/** one-off: a shock on its day (a strike, an explosion); lasting: a measure or disruption in force until it ends. */
export const EVENT_KINDS = ['one-off', 'lasting'] as const;
export const SCENARIO_STATUSES = ['monitoring', 'elevated', 'active', 'resolved', 'dismissed'] as const;
/** Briefings are written in every language of the service. */
export const BRIEFING_LANGS = LANGS;
/** The languages an event or a scenario is translated into, besides its English title and summary. */
export const TRANSLATION_LANGS = LANGS.filter((l) => l !== 'en') as Exclude<Lang, 'en'>[];

export type EventCategory = (typeof EVENT_CATEGORIES)[number];
export type ScenarioStatus = (typeof SCENARIO_STATUSES)[number];
export type BriefingLang = (typeof BRIEFING_LANGS)[number];

/**
 * The scenario state machine (SPEC §3): monitoring ⇄ elevated → active → resolved;
 * monitoring → active (sudden onset); monitoring/elevated → dismissed. resolved and dismissed
 * are terminal.
 */
export const SCENARIO_TRANSITIONS: Readonly<Record<ScenarioStatus, readonly ScenarioStatus[]>> = {
  monitoring: ['elevated', 'active', 'dismissed'],
  elevated: ['monitoring', 'active', 'dismissed'],
  active: ['resolved'],
  resolved: [],
  dismissed: [],
};

/** True when a scenario may move from `from` to `to`. */
export function isAllowedTransition(from: ScenarioStatus, to: ScenarioStatus): boolean {
  return SCENARIO_TRANSITIONS[from].includes(to);
}

const IsoDate = DateString;
const CommoditySlug = z
  .string()
  .regex(/^[a-z]+\.[a-z0-9]+$/)
  .describe("Commodity slug, '<group>.<code>' in lower case, e.g. 'metals.cobalt'.");
const Iso3 = z
  .string()
  .regex(/^[A-Z]{3}$/)
  .describe("ISO 3166-1 alpha-3 country code in upper case, e.g. 'COD'.");

/** The title and summary of an event or a scenario in one of TRANSLATION_LANGS. */
const Translation = z
  .object({
    title: z.string().min(1).describe('Title in this language.'),
    summary: z.string().min(1).describe('Summary in this language.'),
  })
  .describe('Title and summary in one language.');

/** One Translation for each language besides English: a new language of the contract is required here without a change. */
const Translations = z.object(
  Object.fromEntries(TRANSLATION_LANGS.map((l) => [l, Translation])) as Record<(typeof TRANSLATION_LANGS)[number], typeof Translation>,
);
const TRANSLATED = langList('and', TRANSLATION_LANGS);

const EventFields = z.object({
  id: z
    .string()
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)
    .describe("Stable identifier in kebab-case, starting with the event's date, e.g. '2022-09-26-nord-stream-damage'."),
  date: IsoDate.describe('Day the event happened or took effect (YYYY-MM-DD).'),
  category: z.enum(EVENT_CATEGORIES).describe('Exactly one category: conflict, sanction, catastrophe, policy or infrastructure.'),
  title: z.string().min(1).describe('Short headline, in English.'),
  summary: z.string().min(1).describe('Two or three sentences on what happened and why it matters for supply, in English.'),
  translations: Translations.describe(`Title and summary in ${TRANSLATED} (every event carries them all).`),
  commodities: z.array(CommoditySlug).describe('Commodities whose supply the event affects.'),
  countries: z.array(Iso3).describe('Countries most concerned (producers, transit or importing countries).'),
  source_url: z.url({ protocol: /^https$/ }).describe('Address of a public report of the event, preferably from the official body concerned.'),
  source_name: z.string().min(1).describe('Publisher of the report at source_url.'),
  effect: z
    .enum(EVENT_EFFECTS)
    .describe('tightening: the event restricts supply or raises the risk to it (raises stress); easing: it releases or restores supply (lowers stress).'),
  kind: z
    .enum(EVENT_KINDS)
    .describe(
      'one-off: a shock on its day, whose weight decays from `date`; lasting: a measure or disruption in force from `date` until `ended_on` (or still in force when `ended_on` is absent).',
    ),
  ended_on: IsoDate.optional().describe('Day a lasting event ended (lifted, repaired, reopened); its weight decays from then. Absent while still in force.'),
});

export const EventSchema = EventFields.refine((e) => e.kind === 'lasting' || e.ended_on === undefined, {
  message: 'ended_on is only for lasting events',
  path: ['ended_on'],
})
  .refine((e) => e.ended_on === undefined || e.ended_on >= e.date, { message: 'ended_on is before date', path: ['ended_on'] })
  .describe('A tagged geopolitical or physical event that bears on commodity supply.');

/** The title and summary of an event in one language (English as recorded, else its translation). */
export function eventText(e: Pick<Event, 'title' | 'summary' | 'translations'>, lang: Lang): { title: string; summary: string } {
  return lang === 'en' ? { title: e.title, summary: e.summary } : e.translations[lang];
}

/** An event in one language (GET /v1/events?lang=fr|de|es): the title and summary in `lang`, without the other translations. */
export const LocalizedEventSchema = EventFields.omit({ translations: true })
  .extend({
    lang: z.enum(TRANSLATION_LANGS).describe('Language of title and summary'),
    title: z.string().min(1).describe('Short headline, in `lang`.'),
    summary: z.string().min(1).describe('Two or three sentences on what happened and why it matters for supply, in `lang`.'),
  })
  .describe('A tagged event with its title and summary in one language (French, German or Spanish).');

export const StatusChangeSchema = z
  .object({
    status: z.enum(SCENARIO_STATUSES).describe('Status the scenario took on that day.'),
    date: IsoDate.describe('Day of the change (YYYY-MM-DD).'),
    note: z.string().min(1).describe('Why the status changed, in English.'),
  })
  .describe('One entry of a scenario status history; the first entry is the initial status.');

export const ScenarioSchema = z
  .object({
    id: z
      .string()
      .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)
      .describe("Stable identifier in kebab-case, e.g. 'hormuz-closure'."),
    title: z.string().min(1).describe('Title, in English.'),
    summary: z.string().min(1).describe('What would happen and what it would do to supply, in English.'),
    translations: Translations.describe(`Title and summary in ${TRANSLATED}.`),
    commodities: z.array(CommoditySlug).describe('Commodities whose supply the scenario would affect.'),
    countries: z.array(Iso3).describe('Countries most concerned.'),
    probability: z.number().min(0).max(1).describe('Editorial estimate that the scenario materialises (or persists) over the next 12 months, 0–1.'),
    severity: z.number().int().min(1).max(5).describe('Editorial estimate of the impact on supply if it happens, 1 (minor) to 5 (extreme).'),
    status: z.enum(SCENARIO_STATUSES).describe('Current status: monitoring, elevated, active, resolved or dismissed (resolved and dismissed are final).'),
    status_history: z.array(StatusChangeSchema).min(1).describe('Every status change in date order; the last entry is the current status.'),
    updated_at: IsoDate.describe('Day the scenario was last reviewed (YYYY-MM-DD).'),
  })
  .describe('A forward-looking crisis scenario with its probability, severity and status.');

/** What a briefing's figure directives quote (pipeline/content/figures.ts): the series the site charts beside the text. */
export const BRIEFING_SERIES_METRICS = ['price', 'gas_storage', 'producer_share', 'us_spr'] as const;

export const BriefingSeriesSchema = z
  .strictObject({
    metric: z
      .enum(BRIEFING_SERIES_METRICS)
      .describe(
        'price: a commodity price; gas_storage: the fill of a gas storage area; producer_share: shares of world production; us_spr: the US Strategic Petroleum Reserve.',
      ),
    commodity: CommoditySlug.nullable().describe('The commodity (price, producer_share), else null.'),
    area: z
      .string()
      .regex(/^[a-z]{2}$/)
      .nullable()
      .describe("The gas storage area (gas_storage): an ISO 3166-1 alpha-2 code in lower case, or 'eu'; else null."),
    countries: z.array(Iso3).describe('The producers whose share the briefing quotes (producer_share), else empty.'),
    dates: z.array(IsoDate).describe('The days the briefing quotes the series on, in order (empty for producer_share).'),
  })
  .describe('A data series a briefing quotes figures from.');

export const BriefingSchema = z
  .object({
    id: z
      .string()
      .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)
      .describe("Identifier, unique across languages, e.g. '2026-08-20-eu-gas-storage-en'."),
    lang: z.enum(BRIEFING_LANGS).describe(`Language of this version: ${langList()}.`),
    translation_key: z
      .string()
      .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)
      .describe('Shared by the language versions of one briefing.'),
    title: z.string().min(1).describe('Title.'),
    summary: z.string().min(1).describe('One- or two-sentence summary (figures resolved).'),
    body: z.string().min(1).describe('Body in Markdown; every figure has been resolved from the published data.'),
    published_at: IsoDate.describe('Publication day (YYYY-MM-DD); no figure in the briefing is dated after it.'),
    commodities: z.array(CommoditySlug).describe('Commodities the briefing covers.'),
    countries: z.array(Iso3).describe('Countries the briefing covers.'),
    series: z
      .array(BriefingSeriesSchema)
      .describe('The data series the briefing quotes figures from (its figure directives), in the order first quoted; the site charts them.'),
  })
  .describe('An editorial briefing in one language.');

export type Event = z.infer<typeof EventSchema>;
export type LocalizedEvent = z.infer<typeof LocalizedEventSchema>;
export type EventEffect = (typeof EVENT_EFFECTS)[number];
export type EventKind = (typeof EVENT_KINDS)[number];
export type Scenario = z.infer<typeof ScenarioSchema>;
export type StatusChange = z.infer<typeof StatusChangeSchema>;
export type Briefing = z.infer<typeof BriefingSchema>;
export type BriefingSeries = z.infer<typeof BriefingSeriesSchema>;
