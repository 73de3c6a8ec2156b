import { getCommodity } from '../../queries/commodities.ts';
import { resample } from '../../queries/reserves.ts';
import { priceUnit } from '../../../lib/format.ts';
import { defineTool, httpLinks, num, resultMeta, seriesText, share, table } from './common.ts';

export default defineTool('get_commodity', (b, args) => {
  const { data, meta } = getCommodity(b, args).envelope();
  const notes: string[] = [];
  let history = data.price_history;
  // A daily price history (five years, over a thousand points) is shortened to monthly: the full
  // series stays available over HTTP at the sheet's address (JSON) and as its CSV.
  if (history && history.frequency === 'daily') {
    const points = resample(history.points, 'monthly');
    notes.push(
      `price_history shortened from ${history.points.length} daily points to ${points.length} (last observation of each month); the daily series is at ${b.manifest.base_url}${data.url} (CSV: ?format=csv)`,
    );
    history = { ...history, frequency: 'monthly', points };
  }
  const summary = [
    `${data.name} (${data.slug}): stress ${data.stress_index ?? 'n/a'}${data.stress_band ? ` (${data.stress_band})` : ''}`,
    data.price ? `price ${num(data.price.value)} ${priceUnit(data.price)} on ${data.price.as_of}` : 'no public price series',
    data.producers?.entries.length
      ? `top producers: ${data.producers.entries
          .slice(0, 3)
          .map((e) => e.name)
          .join(', ')}`
      : null,
    data.concentration ? `supplier concentration HHI ${num(data.concentration.hhi)}` : null,
  ].filter(Boolean);
  const entries = (label: string, x: typeof data.producers) =>
    x?.entries.length
      ? `${label} (${x.year}, ${x.unit}; world ${num(x.world_total)}):\n${table(
          ['country', 'value', 'share'],
          x.entries.slice(0, 5).map((e) => [e.name, num(e.value), share(e.share, 1)]),
        )}${x.entries.length > 5 ? `\n(and ${x.entries.length - 5} smaller)` : ''}`
      : null;
  const figures = [
    `Stress index ${data.stress.index ?? 'n/a'} (${data.stress.band ?? 'n/a'}) as of ${data.stress.as_of}, coverage ${share(data.stress.coverage)}${data.stress.physical_floor ? `, physical floor ${num(data.stress.physical_floor)} (supply lost on a route with no detour; the index is the larger of the floor and the sum of contributions)` : ''}:\n${table(
      ['component', 'weight', 'effective_weight', 'available', 'raw', 'score', 'contribution'],
      data.stress.components.map((c) => [c.key, c.weight, num(c.effective_weight), c.available, c.raw === null ? null : num(c.raw), c.score, c.contribution]),
    )}`,
    data.price
      ? `Price: ${num(data.price.value)} ${priceUnit(data.price)} on ${data.price.as_of} (${data.price.benchmark}, ${data.price.frequency}), ${data.price.change_1y_pct === null ? 'n/a' : `${num(data.price.change_1y_pct)} %`} over one year${data.price.unit_note ? `. Unit: ${data.price.unit_note}` : ''}`
      : 'Price: no public price series',
    entries('Producers', data.producers),
    entries('Consumers', data.consumers),
    entries('Reserves in the ground', data.reserves_in_ground),
    data.concentration ? `Supplier concentration: HHI ${num(data.concentration.hhi)} (${data.concentration.band}, ${data.concentration.year})` : null,
    data.flows.length
      ? `Largest trade flows:\n${table(
          ['exporter', 'importer', 'value', 'route', 'year'],
          data.flows.slice(0, 5).map((f) => [f.exporter, f.importer, `${num(f.value)} ${f.unit}`, f.route, f.year]),
        )}`
      : null,
    history ? seriesText(`Price history, ${history.frequency}`, history.points, priceUnit(history)) : null,
    seriesText(
      'Stress index history, monthly',
      data.stress_history.flatMap((p) => (p.index === null ? [] : [{ date: p.date, value: p.index }])),
      '0–100',
    ),
  ].filter((x): x is string => !!x);
  return {
    structured: { ...resultMeta(meta, notes), ...data, price_history: history },
    summary: `${summary.join('; ')}.`,
    figures: figures.join('\n\n'),
    links: [
      { uri: `chokepoint://commodity/${data.slug}`, name: `commodity-${data.slug}`, title: `${data.name} sheet, MCP resource`, mimeType: 'application/json' },
      ...httpLinks(b, data.url, `${data.name} sheet`, false),
      ...(data.price_history
        ? [
            {
              uri: `${b.manifest.base_url}${data.url}?format=csv`,
              name: `${data.slug} price history (CSV)`,
              title: `${data.name} price history (${data.price_history.frequency}, ${data.price_history.points.length} points), CSV`,
              mimeType: 'text/csv',
            },
          ]
        : []),
    ],
  };
});
