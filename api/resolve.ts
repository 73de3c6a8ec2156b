import { suggest } from '../lib/suggest.ts';
import type { CountryEntry, LoadedBuild } from './build.ts';
import { ApiError } from './problem.ts';

/** A commodity code or slug, any case → the canonical slug; else 404 with the nearest slugs. */
export function resolveCommodity(b: LoadedBuild, input: string, param = 'commodity'): string {
  const key = input.trim().toLowerCase();
  const slug = b.commodityAliases.get(key);
  if (slug) return slug;
  const nearest = suggest(key, key.includes('.') ? b.commodities.map((c) => c.slug) : b.commodities.map((c) => c.code), 3);
  throw new ApiError(404, `unknown commodity '${input}'${nearest.length ? `; did you mean ${nearest.join(', ')}?` : ''}`, {
    errors: [{ param, message: 'unknown commodity' }],
    suggestions: nearest,
  });
}

/** ISO 3166-1 alpha-2 or alpha-3, any case → the country; else 404 with the nearest codes. */
export function resolveCountry(b: LoadedBuild, input: string, param = 'country'): CountryEntry {
  const key = input.trim().toLowerCase();
  const hit = b.countryAliases.get(key);
  if (hit) return hit;
  const pool = [...b.countries.values()].map((c) => (key.length === 2 ? c.iso2 : c.iso3));
  const nearest = suggest(key.toUpperCase(), pool, 3);
  throw new ApiError(404, `unknown country '${input}'${nearest.length ? `; did you mean ${nearest.join(', ')}?` : ''}`, {
    errors: [{ param, message: 'unknown or uncovered country code' }],
    suggestions: nearest,
  });
}

/** The key `<code>/<iso2>` of a published reserve; 404 names the reserves that exist. */
export function resolveReserve(b: LoadedBuild, commodity: string, country: string): string {
  const slug = resolveCommodity(b, commodity);
  const code = slug.split('.')[1] as string;
  const c = country.trim().toLowerCase();
  const iso2 = c === 'eu' ? 'eu' : resolveCountry(b, c).iso2.toLowerCase();
  const key = `${code}/${iso2}`;
  if (b.reserves.has(key)) return key;
  const available = [...b.reserves.keys()].sort();
  const forCommodity = available.filter((k) => k.startsWith(`${code}/`));
  throw new ApiError(
    404,
    `no reserve is published for ${code} in ${iso2}; ${forCommodity.length ? `${code} reserves exist for ${forCommodity.map((k) => k.split('/')[1]).join(', ')}` : `reserves exist for ${available.join(', ')}`}`,
    {
      suggestions: (forCommodity.length ? forCommodity : available).map((k) => `commodity=${k.split('/')[0]}&country=${k.split('/')[1]}`),
    },
  );
}
