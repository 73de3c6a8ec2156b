import { LICENSE, LICENSE_URL, type Meta, type SourceRef, attributionText } from '../contract/common.ts';
import type { SourceStatus } from '../contract/manifest.ts';
import { EDITORIAL_SOURCE, type CitedSource } from '../contract/sources.ts';
import { type SourceCadence, ageText, buildFreshness, cadenceFor, freshnessOf } from './freshness.ts';

/**
 * The `meta` of a response: its sources (each with the version retrieved, its freshness and a
 * note when it is late, stale or historical), the build, the licence and the attribution.
 * `dataAsOf` gives a source's own newest date where the payload holds less than the whole source.
 *
 * The build stamps made here (`generated_at`, `build`, and each source's `retrieved_at`) are
 * this build's; the writer (BuildWriter.json) replaces them with the live build's where the
 * payload is otherwise unchanged, so they name the build in which the content last changed.
 * Everything else in a meta must be a function of the content and the day (freshness and the
 * age in the notes change daily, never between two builds of one day).
 */
export type MetaFor = (
  sources: readonly CitedSource[],
  asOf: string | null,
  extra?: Partial<Meta>,
  dataAsOf?: Readonly<Record<string, string | null | undefined>>,
) => Meta;

export function metaFactory(x: {
  build: string;
  generatedAt: string;
  baseUrl: string;
  statuses: readonly SourceStatus[];
  cadences: Record<string, SourceCadence>;
}): MetaFor {
  const today = x.generatedAt.slice(0, 10);
  const refs = new Map<string, SourceRef>();
  for (const s of x.statuses) {
    if (s.status === 'unavailable' || !s.retrieved_at) continue;
    refs.set(s.id, {
      id: s.id,
      publisher: s.publisher,
      dataset: s.dataset,
      url: s.url,
      license: s.license,
      retrieved_at: s.retrieved_at,
      data_as_of: s.data_as_of,
      freshness: s.freshness,
      expected_next: s.expected_next,
      stale: s.status === 'stale',
    });
  }
  refs.set(EDITORIAL_SOURCE, {
    id: EDITORIAL_SOURCE,
    publisher: 'Chokepoint',
    dataset: 'Editorial content: events, scenarios, briefings',
    url: `${x.baseUrl}/`,
    license: LICENSE,
    // Read from data/ by this build; kept from the live build with the rest of the stamps when unchanged.
    retrieved_at: x.generatedAt,
    data_as_of: null,
    stale: false,
    freshness: freshnessOf(cadenceFor(x.cadences, EDITORIAL_SOURCE), null, today).freshness,
    expected_next: null,
  });
  const own = (r: SourceRef, asOf: string | null | undefined): SourceRef => {
    if (asOf === undefined || asOf === null || asOf === r.data_as_of) return r;
    const f = buildFreshness(cadenceFor(x.cadences, r.id), asOf, today);
    return { ...r, data_as_of: asOf, freshness: f.freshness, expected_next: f.expected_next };
  };
  const ageNote = (r: SourceRef): string | null => {
    if (!r.data_as_of) return null;
    if (r.freshness === 'historical' || r.freshness === 'discontinued') {
      return `${r.id} is ${r.freshness === 'historical' ? 'a historical edition' : 'discontinued'}: its data end ${r.data_as_of} and will not update`;
    }
    if (r.freshness !== 'late' && r.freshness !== 'stale') return null;
    if (!r.expected_next) return null;
    return `${r.id} is ${r.freshness}: its data end ${r.data_as_of} (${ageText(r.data_as_of, today)}); the next observation was due by ${r.expected_next}`;
  };
  const attribution = attributionText(x.baseUrl);
  return (sources, asOf, extra = {}, dataAsOf = {}) => {
    const used = [...new Set(sources)].map((id) => refs.get(id) && own(refs.get(id)!, dataAsOf[id])).filter((r): r is SourceRef => r !== undefined);
    const stale = used.filter((r) => r.stale).map((r) => `${r.id} could not be refreshed; its last good snapshot (retrieved ${r.retrieved_at}) is served`);
    const aged = used.map(ageNote).filter((n): n is string => n !== null);
    const notes = [...(extra.notes ?? []), ...stale, ...aged];
    return {
      as_of: asOf,
      generated_at: x.generatedAt,
      build: x.build,
      license: LICENSE,
      license_url: LICENSE_URL,
      attribution,
      sources: used,
      ...extra,
      ...(notes.length ? { notes } : {}),
    };
  };
}
