import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { fetchEiaPages, fetchEiaSeries, readEiaPage } from './eia-api.ts';
import { compareByKey, MIRROR_DIR, readCsvRecords, recording, replayFetch } from '../../test/publisher-recordings.ts';

/** The response bodies of a VCR cassette (vcrpy YAML: interactions[].response.body.string), parsed as JSON. */
function cassette(path: string): unknown[] {
  const doc = parse(recording(path).toString('utf8')) as { interactions: { response: { body: { string: string } } }[] };
  return doc.interactions.map((i) => JSON.parse(i.response.body.string) as unknown);
}

const mirrorCsv = (source: string, file: string) => readCsvRecords(join(MIRROR_DIR, source, file));

describe('EIA API v2 answers as recorded', () => {
  it('reads the data routes (total and values as strings) and matches the mirror on the recorded days', () => {
    const [wti] = cassette('eia-oil-prices/petroleum-pri-spt_RWTC_weekly_1986-01-03.cassette.yaml');
    const w = readEiaPage('eia-oil-prices', wti, 'recorded');
    expect(w.total).toBe(1);
    expect(w.rows.map((r) => [r.period, r.value, r.series])).toEqual([['1986-01-03', '25.78', 'RWTC']]);
    expect(mirrorCsv('eia-oil-prices', 'wti-weekly.csv').find((r) => r.Date === '1986-01-03')?.Price).toBe('25.78');

    const [metadata, brent] = cassette('eia-oil-prices/petroleum-pri-spt_route-metadata+EPCBRENT_monthly_2025-01..2025-03.cassette.yaml');
    expect(() => readEiaPage('eia-oil-prices', metadata, 'route metadata')).toThrow(/no response\.data/);
    const b = readEiaPage('eia-oil-prices', brent, 'recorded');
    const monthly = new Map(mirrorCsv('eia-oil-prices', 'brent-monthly.csv').map((r) => [r.Date!.slice(0, 7), Number(r.Price)]));
    const cmp = compareByKey(new Map(b.rows.map((r) => [r.period, Number(r.value)])), monthly);
    expect([b.total, cmp.shared, cmp.maxDiff]).toEqual([3, 3, 0]);

    const [futures] = cassette('eia-henry-hub/natural-gas-pri-fut_RNGC4_weekly_1993-12-24.cassette.yaml');
    expect(readEiaPage('eia-henry-hub', futures, 'recorded').rows.map((r) => [r.period, r.series, r.units])).toEqual([['1993-12-24', 'RNGC4', '$/MMBTU']]);

    const [crude] = cassette('eia-weekly-petroleum/petroleum-stoc-wstk_WCRSTUS1_weekly_1982-08-20.cassette.yaml');
    const c = readEiaPage('eia-weekly-petroleum', crude, 'recorded').rows;
    expect(c.map((r) => [r.period, r.value, r.units])).toEqual([['1982-08-20', '609219', 'MBBL']]);
    expect(mirrorCsv('eia-weekly-petroleum', 'eia-us-stocks-weekly-1982-2022.csv').find((r) => r.date === '1982-08-20')?.WCRSTUS1).toBe('609219');
  });

  it('reads a full weekly history (2,193 rows, newest first) equal to the mirror on every shared week', () => {
    const body = JSON.parse(recording('eia-weekly-petroleum/petroleum-stoc-wstk_WCESTUS1_weekly.json').toString('utf8')) as unknown;
    const page = readEiaPage('eia-weekly-petroleum', body, 'recorded');
    expect([page.total, page.rows.length, page.rows[0]?.period, page.rows.at(-1)?.period]).toEqual([2193, 2193, '2024-10-04', '1982-08-20']);
    const ours = new Map(page.rows.map((r) => [r.period, Number(r.value)]));
    const theirs = new Map<string, number>();
    for (const r of mirrorCsv('eia-weekly-petroleum', 'eia-us-stocks-weekly-1982-2022.csv')) if (r.WCESTUS1) theirs.set(r.date!, Number(r.WCESTUS1));
    for (const r of mirrorCsv('eia-weekly-petroleum', 'eia-wpsr-us-weekly.csv')) if (r.id === 'WCESTUS1') theirs.set(r.period!, Number(r.value));
    const cmp = compareByKey(ours, theirs);
    // 1982-08-20 .. 2024-10-04 in the recording; the mirror has the same weeks up to 2024-10-04.
    expect({ shared: cmp.shared, maxDiff: cmp.maxDiff, onlyRecording: cmp.onlyOurs.length }).toEqual({ shared: 2193, maxDiff: 0, onlyRecording: 0 });
  });

  it('reads the /seriesid/ shape too (total and values as numbers), and refuses a value that is not a number', () => {
    // No /seriesid/ answer is recorded; this is its shape as RECORDINGS.md describes it (numbers, plus description and id).
    const seriesid = {
      response: {
        total: 2,
        data: [
          { period: '2026-02-27', value: 422741, id: 'WCESTUS1', description: 'x' },
          { period: '2026-02-20', value: null },
        ],
      },
    };
    expect(readEiaPage('eia-weekly-petroleum', seriesid, 'seriesid').rows.map((r) => r.value)).toEqual([422741, null]);
    const bad = { response: { total: '1', data: [{ period: '2026-02-27', value: 'NA' }] } };
    expect(() => readEiaPage('eia-weekly-petroleum', bad, 'x')).toThrow(/value "NA" for 2026-02-27 is not a number/);
    expect(() => readEiaPage('eia-weekly-petroleum', { error: 'API_KEY_INVALID' }, 'x')).toThrow(/no response\.data in the answer \("API_KEY_INVALID"\)/);
  });

  it('pages on past an "incomplete return" warning, and fails clearly when pages stop short of the total', async () => {
    const recorded = JSON.parse(recording('eia-weekly-petroleum/petroleum-stoc-wstk_WCESTUS1_weekly.json').toString('utf8')) as {
      response: { total: string; data: unknown[] };
    };
    const warning = { warning: 'incomplete return', description: 'The API can only return 5000 rows in JSON format.' };
    // A server that caps pages at 1,000 rows and warns, as EIA does past 5,000: the recorded rows, served in slices.
    const sliced = (cap: number, stopAfter = Infinity): typeof fetch =>
      (async (input: string | URL | Request) => {
        const offset = Number(new URL(String(input)).searchParams.get('offset'));
        const data = offset >= stopAfter ? [] : recorded.response.data.slice(offset, offset + cap);
        return Response.json({ response: { ...recorded.response, data, warnings: [warning] } });
      }) as typeof fetch;
    const all = await fetchEiaPages('eia-weekly-petroleum', sliced(1000), 'k', '/petroleum/stoc/wstk/data/', { frequency: 'weekly' });
    expect(all.length).toBe(2193);
    expect(all.map((r) => r.period)).toEqual(recorded.response.data.map((r) => (r as { period: string }).period));
    await expect(fetchEiaPages('eia-weekly-petroleum', sliced(1000, 2000), 'k', '/x/data/', {})).rejects.toThrow(
      /2000 of 2193 rows arrived, then none \(EIA warned .*incomplete return/,
    );
  });

  it('fetchEiaSeries keeps the key out of its messages and reads a recorded answer', async () => {
    const [wti] = cassette('eia-oil-prices/petroleum-pri-spt_RWTC_weekly_1986-01-03.cassette.yaml');
    const publisher = replayFetch([
      { url: /^https:\/\/api\.eia\.gov\/v2\/petroleum\/pri\/spt\/data\/\?.*facets%5Bseries%5D%5B%5D=RWTC/, body: JSON.stringify(wti) },
    ]);
    expect(await fetchEiaSeries('eia-oil-prices', publisher.fetch, 'SECRET', 'petroleum/pri/spt', 'RWTC', 'weekly')).toEqual([['1986-01-03', '25.78']]);
    expect(publisher.asked[0]).toContain('api_key=SECRET');
    const err = await fetchEiaSeries('eia-oil-prices', publisher.fetch, 'SECRET', 'petroleum/pri/spt', 'RBRTE', 'weekly').catch((e: Error) => e);
    expect(String(err)).toMatch(/answered 404/);
    expect(String(err)).not.toContain('SECRET');
  });
});
