import { COUNTRY_ABBREVIATIONS, EU_NAMES } from '../contract/api.ts';
import { BUILD_FILES } from '../contract/layout.ts';
import { lookupName, matchKey, nameIndex, rankNames, type NameIndex } from '../lib/suggest.ts';
import { type CountryEntry, type LoadedBuild, perBuild } from './build.ts';
import { ApiError } from './problem.ts';

/**
 * The one identifier resolver of the API: every REST route, MCP tool, resource and prompt turns
 * what a client wrote into a commodity, a country or a reserve through these functions.
 *
 * - A commodity: its slug or code, any case (the fast path), or a name or alias of its sheet in
 *   English, French, German or Spanish (`natural gas`, `Kobalt`, `pétrole`).
 * - A country: ISO 3166-1 alpha-2 or alpha-3, any case (the fast path), one of the few
 *   abbreviations of contract/api.ts COUNTRY_ABBREVIATIONS (`UK`, `GER`, `UAE`), or its name
 *   in one of the four languages (`China`, `Allemagne`, `Deutschland`, `Alemania`).
 *
 * What resolves to nothing is a 404 problem (UnknownIdentifier) with at most MAX_SUGGESTIONS
 * suggestions, by meaning first, then spelling (lib/suggest.ts rankNames). Inputs are bounded by
 * contract/limits.ts before they reach here, so a ranking costs microseconds.
 */

export const MAX_SUGGESTIONS = 5;

const COMMODITY_FORM = 'a commodity code (gas), slug (energy.gas), or its name in English, French, German or Spanish (natural gas, Erdgas)';
const COUNTRY_FORM =
  "an ISO 3166-1 code (DEU or DE), a common abbreviation (UK), or the country's name in English, French, German or Spanish (Germany, Allemagne)";

/**
 * A refusal a reader can act on, in three parts: the problem, the form the argument accepts, and
 * at most MAX_SUGGESTIONS suggestions, each with a label, nearest first. The HTTP problem keeps
 * its own `detail` and `suggestions`; the MCP server and the answerer say these parts as one
 * short text (api/mcp/tools/common.ts errorText), never the whole list of what exists.
 */
export class ExplainedError extends ApiError {
  /** What went wrong, as a sentence without the suggestions: `unknown country 'QQ'`. */
  readonly problem: string;
  /** The forms the parameter accepts. */
  readonly accepted: string;
  /** The suggestions with a label each (`DEU (Germany)`), best first, at most MAX_SUGGESTIONS. */
  readonly labelled: readonly string[];
  constructor(
    status: 400 | 404,
    detail: string,
    extras: ConstructorParameters<typeof ApiError>[2],
    explained: { problem: string; accepted: string; labelled: readonly string[] },
  ) {
    super(status, detail, extras);
    this.problem = explained.problem;
    this.accepted = explained.accepted;
    this.labelled = explained.labelled.slice(0, MAX_SUGGESTIONS);
  }
}

/** An identifier that names nothing in the build: 404 with the accepted form and the nearest identifiers. */
export class UnknownIdentifier extends ExplainedError {
  constructor(param: string, what: 'commodity' | 'country', problem: string, accepted: string, suggestions: readonly string[], labelled: readonly string[]) {
    super(
      404,
      labelled.length ? `${problem}; did you mean ${orList(labelled)}?` : `${problem}; expected ${accepted}`,
      { errors: [{ param, message: `unknown ${what}; expected ${accepted}` }], suggestions: [...suggestions] },
      { problem, accepted, labelled },
    );
  }
}

const orList = (xs: readonly string[]) => (xs.length < 2 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} or ${xs.at(-1)}`);

const decoder = new TextDecoder();

/**
 * The object member `key` of a published file's `data` (its `names`, its `aliases`). The pipeline
 * writes members in schema order, so these sit in the first few hundred bytes: only that head is
 * decoded and scanned; the whole file is parsed only when the member is not there.
 */
function dataMember<T>(bytes: Uint8Array, key: string): T | undefined {
  const head = decoder.decode(bytes.subarray(0, 8192));
  const marker = `"${key}":{`;
  const at = head.indexOf(marker);
  if (at >= 0) {
    const start = at + marker.length - 1;
    let depth = 0;
    let inString = false;
    for (let i = start; i < head.length; i++) {
      const ch = head[i];
      if (inString) {
        if (ch === '\\') i++;
        else if (ch === '"') inString = false;
      } else if (ch === '"') inString = true;
      else if (ch === '{') depth++;
      else if (ch === '}' && --depth === 0) return JSON.parse(head.slice(start, i + 1)) as T;
    }
  }
  return (JSON.parse(decoder.decode(bytes)) as { data?: Record<string, T> }).data?.[key];
}

/** Commodity names: code, slug, names and aliases in every language → slug. Built on the first name lookup of a build. */
const commodityNames = perBuild((b): NameIndex<string> => {
  return nameIndex(
    b.commodities.map((c) => {
      const file = b.files.get(BUILD_FILES.commodity(c.slug).path);
      const aliases = file ? (dataMember<Record<string, string[]>>(file.body, 'aliases') ?? {}) : {};
      return { id: c.slug, names: [c.code, c.slug, c.name, ...Object.values(c.names), ...Object.values(aliases).flat()] };
    }),
  );
});

/** Country names: alpha-2, alpha-3, the abbreviations, and the names of each profile in every language → alpha-3. */
const countryNames = perBuild((b): NameIndex<string> => {
  const abbreviations = new Map<string, string[]>();
  for (const [abbr, iso3] of COUNTRY_ABBREVIATIONS) abbreviations.set(iso3, [...(abbreviations.get(iso3) ?? []), abbr]);
  return nameIndex(
    [...b.countries.values()].map((c) => {
      const file = b.files.get(BUILD_FILES.country(c.iso3).path);
      const names = file ? (dataMember<Record<string, string>>(file.body, 'names') ?? {}) : {};
      return { id: c.iso3, names: [c.iso3, c.iso2, c.name, ...Object.values(names), ...(abbreviations.get(c.iso3) ?? [])] };
    }),
  );
});

/** The slugs a commodity input names: one when it resolves, several when a name is ambiguous, none when unknown. */
function commodityHits(b: LoadedBuild, input: string): readonly string[] {
  const slug = b.commodityAliases.get(input.trim().toLowerCase());
  if (slug) return [slug];
  return lookupName(commodityNames(b), input);
}

/** A commodity code, slug, name or alias, any case → the canonical slug; else 404 with at most five suggestions. */
export function resolveCommodity(b: LoadedBuild, input: string, param = 'commodity'): string {
  const hits = commodityHits(b, input);
  if (hits.length === 1) return hits[0]!;
  const index = commodityNames(b);
  // A slug with a known code or name after its group (`agri.cobalt`, `metals.kobalt`): that commodity first.
  const dot = input.indexOf('.');
  const after = dot > 0 ? lookupName(index, input.slice(dot + 1)) : [];
  const nearest = [...new Set([...hits, ...after, ...rankNames(index, input, MAX_SUGGESTIONS)])].slice(0, MAX_SUGGESTIONS);
  const name = (slug: string) => b.commodities.find((c) => c.slug === slug)?.name;
  throw new UnknownIdentifier(
    param,
    'commodity',
    hits.length > 1 ? `'${input}' names more than one commodity` : `unknown commodity '${input}'`,
    COMMODITY_FORM,
    nearest,
    nearest.map((s) => `${s} (${name(s)})`),
  );
}

/** An ISO 3166-1 code, abbreviation or country name, any case → the country; else 404 with at most five suggestions. */
export function resolveCountry(b: LoadedBuild, input: string, param = 'country'): CountryEntry {
  const direct = b.countryAliases.get(input.trim().toLowerCase());
  if (direct) return direct;
  const index = countryNames(b);
  const hits = lookupName(index, input);
  if (hits.length === 1) return b.countries.get(hits[0]!)!;
  const nearest = [...new Set([...hits, ...rankNames(index, input, MAX_SUGGESTIONS)])].slice(0, MAX_SUGGESTIONS);
  throw new UnknownIdentifier(
    param,
    'country',
    hits.length > 1 ? `'${input}' names more than one country` : `unknown or uncovered country '${input}'`,
    COUNTRY_FORM,
    nearest,
    nearest.map((iso3) => `${iso3} (${b.countries.get(iso3)?.name})`),
  );
}

/** A reserve's country: `eu` for the EU aggregate (`eu`, `European Union`, `Union européenne`…), else the country's alpha-2, lower case. */
export function resolveReserveCountry(b: LoadedBuild, input: string, param = 'country'): string {
  if (EU_NAMES.has(matchKey(input))) return 'eu';
  return resolveCountry(b, input, param).iso2.toLowerCase();
}

const commodityName = (b: LoadedBuild, code: string) => b.commodities.find((c) => c.code === code)?.name ?? code;
const reserveCountryName = (b: LoadedBuild, iso2: string) =>
  iso2 === 'eu' ? 'European Union' : ([...b.countries.values()].find((c) => c.iso2.toLowerCase() === iso2)?.name ?? iso2.toUpperCase());

/** The code of a commodity input that has published reserves; 404 naming the commodities that have them. */
function reserveCode(b: LoadedBuild, commodity: string): string {
  const code = resolveCommodity(b, commodity).split('.')[1] as string;
  const codes = [...new Set([...b.reserves.keys()].map((k) => k.split('/')[0]!))].sort();
  if (!codes.includes(code)) {
    const nearest = codes.slice(0, MAX_SUGGESTIONS);
    throw new ExplainedError(
      404,
      `no reserve is published for ${code}; reserves are published for ${codes.join(', ')}`,
      { errors: [{ param: 'commodity', message: 'no published reserve' }], suggestions: nearest.map((c) => `commodity=${c}`) },
      {
        problem: `no reserve is published for ${commodityName(b, code)} (${code})`,
        accepted: 'a commodity with published strategic reserves',
        labelled: nearest.map((c) => `${c} (${commodityName(b, c)})`),
      },
    );
  }
  return code;
}

/** The newest stored volume of a reserve (0 when it has none): the larger reserve is the likelier one meant. */
function storedVolume(b: LoadedBuild, key: string): number {
  return b.reserves.get(key)?.series.metrics.volume?.points.at(-1)?.value ?? 0;
}

/** The keys `<code>/<iso2>` of every published reserve of one commodity, in key order; 404 when it has none. */
export function resolveReserves(b: LoadedBuild, commodity: string): string[] {
  const code = reserveCode(b, commodity);
  return [...b.reserves.keys()].filter((k) => k.startsWith(`${code}/`)).sort();
}

/** The key `<code>/<iso2>` of a published reserve; 404 names the reserves that exist and suggests at most five. */
export function resolveReserve(b: LoadedBuild, commodity: string, country: string): string {
  const slug = resolveCommodity(b, commodity);
  const code = slug.split('.')[1] as string;
  const iso2 = resolveReserveCountry(b, country);
  const key = `${code}/${iso2}`;
  if (b.reserves.has(key)) return key;
  const available = [...b.reserves.keys()].sort();
  const forCommodity = available.filter((k) => k.startsWith(`${code}/`));
  // Meaning first: this country's other reserves, the EU aggregate of this commodity; then the
  // other reserves of this commodity, the largest (by stored volume) first.
  const bySize = (keys: string[]) => [...keys].sort((x, y) => storedVolume(b, y) - storedVolume(b, x) || x.localeCompare(y));
  const ranked = [
    ...available.filter((k) => k.endsWith(`/${iso2}`)),
    ...forCommodity.filter((k) => k.endsWith('/eu')),
    ...bySize(forCommodity.length ? forCommodity : available),
  ];
  const nearest = [...new Set(ranked)].slice(0, MAX_SUGGESTIONS);
  const arg = (k: string) => `commodity=${k.split('/')[0]}&country=${k.split('/')[1]}`;
  throw new ExplainedError(
    404,
    `no reserve is published for ${code} in ${iso2}; ${forCommodity.length ? `${code} reserves exist for ${forCommodity.map((k) => k.split('/')[1]).join(', ')}` : `reserves exist for ${available.join(', ')}`}`,
    { errors: [{ param: 'country', message: `no ${code} reserve published for this country` }], suggestions: nearest.map(arg) },
    {
      problem: `no ${code} reserve is published for ${reserveCountryName(b, iso2)} (${iso2})`,
      accepted: forCommodity.length
        ? `one of the ${forCommodity.length} countries with a published ${code} reserve${forCommodity.some((k) => k.endsWith('/eu')) ? ' (eu for the EU aggregate)' : ''}`
        : 'a country with a published reserve',
      labelled: nearest.map((k) => `${arg(k)} (${reserveCountryName(b, k.split('/')[1]!)})`),
    },
  );
}
