import type { APIRoute } from 'astro';
import { countries, country } from '../../../lib/data';
import { csv } from '../../../lib/series';

export function getStaticPaths() {
  return countries().data.flatMap((c) => {
    const p = country(c.iso3).data;
    const files = [
      ...(p.exposures.some((e) => e.import_dependence !== null) ? ['exposures'] : []),
      ...(p.autonomy.length ? ['autonomy'] : []),
      ...(p.production.length ? ['production'] : []),
      ...(p.russian_gas_import_share.length > 1 ? ['russian-gas'] : []),
      ...(p.stress_history.length ? ['stress-history'] : []),
    ];
    return files.map((file) => ({ params: { iso3: c.iso3, file } }));
  });
}

/** The data behind each chart of a country page, as CSV. */
export const GET: APIRoute = ({ params }) => {
  const p = country(params.iso3!).data;
  const body =
    params.file === 'exposures'
      ? csv(
          ['commodity', 'year', 'unit', 'production', 'consumption', 'import_dependence', 'supplier_hhi', 'source'],
          p.exposures.map((e) => [e.commodity, e.year, e.unit, e.production, e.consumption, e.import_dependence, e.supplier_hhi, e.source]),
        )
      : params.file === 'autonomy'
        ? csv(
            ['commodity', 'year', 'ratio', 'production', 'consumption', 'unit', 'source'],
            p.autonomy.map((a) => [a.commodity, a.year, a.ratio, a.production, a.consumption, a.unit, a.source]),
          )
        : params.file === 'stress-history'
          ? csv(
              ['date', 'index', 'band', 'coverage'],
              p.stress_history.map((h) => [h.date, h.index, h.band, h.coverage]),
            )
          : params.file === 'production'
            ? csv(
                ['commodity', 'value', 'unit', 'share', 'rank', 'year', 'source'],
                p.production.map((x) => [x.commodity, x.value, x.unit, x.share, x.rank, x.year, x.source]),
              )
            : csv(
                ['year', 'share'],
                p.russian_gas_import_share.map((r) => [r.year, r.share]),
              );
  return new Response(body, { headers: { 'content-type': 'text/csv; charset=utf-8' } });
};
