import type { APIRoute } from 'astro';
import { commodities, sheet } from '../../../lib/data';
import { csv } from '../../../lib/series';

const FILES = ['price', 'producers', 'consumers', 'reserves', 'stress-history'] as const;

export function getStaticPaths() {
  return commodities().data.flatMap((c) => {
    const s = sheet(c.slug).data;
    const has = {
      price: !!s.price_history?.points.length,
      producers: !!s.producers,
      consumers: !!s.consumers,
      reserves: !!s.reserves_in_ground,
      'stress-history': s.stress_history.length > 0,
    };
    return FILES.filter((f) => has[f]).map((file) => ({ params: { slug: c.slug, file } }));
  });
}

/** The data behind each chart of a commodity page, as CSV. */
export const GET: APIRoute = ({ params }) => {
  const s = sheet(params.slug!).data;
  let body: string;
  if (params.file === 'price') {
    const h = s.price_history!;
    body = csv(
      ['date', 'value', 'currency', 'unit'],
      h.points.map((p) => [p.date, p.value, h.currency, h.unit]),
    );
  } else if (params.file === 'stress-history') {
    body = csv(
      ['date', 'index', 'band', 'coverage'],
      s.stress_history.map((p) => [p.date, p.index, p.band, p.coverage]),
    );
  } else {
    const t = params.file === 'producers' ? s.producers! : params.file === 'consumers' ? s.consumers! : s.reserves_in_ground!;
    body = csv(
      ['iso3', 'name', 'value', 'unit', 'share', 'year', 'basis', 'source'],
      t.entries.map((e) => [e.iso3, e.name, e.value, t.unit, e.share, t.year, t.basis, t.source]),
    );
  }
  return new Response(body, { headers: { 'content-type': 'text/csv; charset=utf-8' } });
};
