import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AskResponse } from '../../contract/api.ts';
import { startTestServer } from '../../test/http.ts';
import { pctUpTo } from '../../lib/format.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

async function ask(q: string) {
  const res = await fetch(`${server.url}/v1/ask`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ q }) });
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('no-store');
  const body = AskResponse.parse(await res.json());
  return body.data;
}
const get = async (url: string): Promise<Json> => {
  const res = await fetch(`${server.url}${url}`);
  expect(res.status, url).toBe(200);
  return res.json();
};
/** The value of `field: value` in a quote. */
const quoted = (quote: string, field: string) => Number(new RegExp(`${field}:? (-?[\\d.]+)`).exec(quote)?.[1]);

describe('POST /v1/ask over HTTP, checked against the REST API', () => {
  it('gas storage: the figure and the citation are those of GET /v1/reserves', async () => {
    const a = await ask("How full is Germany's gas storage?");
    const rest = (await get('/v1/reserves?commodity=gas&country=de')).data;
    expect(a.mode).toBe('grounded');
    expect(a.lang).toBe('en');
    const c = a.citations.find((x) => x.type === 'reserve')!;
    expect(c).toMatchObject({ id: 'gas/de', url: '/v1/reserves?commodity=gas&country=de', title: rest.name });
    expect(quoted(c.quote, 'fill_pct')).toBe(rest.fill_pct);
    expect(a.answer).toContain(pctUpTo(rest.fill_pct, 2, 'en'));
  });

  it('a date: the cited time-series address returns the quoted observation', async () => {
    const a = await ask("Quel était le niveau de remplissage du stockage de gaz de l'UE le 1er mars 2026 ?");
    expect(a.lang).toBe('fr');
    const c = a.citations[0]!;
    expect(c.url).toMatch(/^\/v1\/reserves\/timeseries\?commodity=gas&country=eu&from=2026-0[23]-\d\d&to=2026-0[23]-\d\d$/);
    const ts = (await get(c.url)).data;
    expect(ts.points).toHaveLength(1);
    expect(quoted(c.quote, 'fill_pct')).toBe(ts.points[0].value);
    expect(ts.points[0].date <= '2026-03-01').toBe(true);
    expect(a.answer).toContain(String(ts.points[0].value).replace('.', ','));
  });

  it('prices: the quote holds the price of GET /v1/commodities/{slug}', async () => {
    const a = await ask('Wie hoch ist der Ölpreis?');
    expect(a.lang).toBe('de');
    const c = a.citations.find((x) => x.id === 'energy.oil')!;
    const sheet = (await get(c.url)).data;
    expect(c.url).toBe('/v1/commodities/energy.oil');
    expect(quoted(c.quote, 'price')).toBe(sheet.price.value);
  });

  it('the US SPR: the volume of GET /v1/reserves?commodity=oil&country=us', async () => {
    const a = await ask('¿Cuánto petróleo hay en la Reserva Estratégica de Petróleo de EE. UU.?');
    expect(a.lang).toBe('es');
    const c = a.citations[0]!;
    const rest = (await get(c.url)).data;
    expect(quoted(c.quote, 'volume')).toBe(rest.volume.value);
  });

  it('country figures: the quote holds the ratio of GET /v1/countries/{iso}', async () => {
    const a = await ask('How self-sufficient is Germany in gas?');
    const c = a.citations.find((x) => x.type === 'country')!;
    const p = (await get(c.url)).data;
    expect(c.url).toBe('/v1/countries/DEU');
    expect(quoted(c.quote, 'ratio')).toBe(p.autonomy.find((x: Json) => x.commodity === 'energy.gas').ratio);
  });

  it('scenarios and events: every cited record is in the list its address returns', async () => {
    const s = await ask('Which scenarios are active?');
    const list = await get('/v1/scenarios?status=active');
    expect(quoted(s.citations.find((c) => c.id === 'scenarios?status=active')!.quote, 'count')).toBe(list.meta.count);
    for (const c of s.citations.filter((x) => x.id !== 'scenarios?status=active')) expect((await get(c.url)).data.map((x: Json) => x.id)).toContain(c.id);
    const e = await ask('What are the latest events on cobalt?');
    expect(e.citations.length).toBeGreaterThan(0);
    for (const c of e.citations) {
      const events = (await get(c.url)).data;
      expect(events.map((x: Json) => x.id)).toContain(c.id);
      expect(events.find((x: Json) => x.id === c.id).commodities).toContain('metals.cobalt');
    }
  });

  it('events: an answer in Spanish quotes the Spanish titles, cited from the events in Spanish', async () => {
    const a = await ask('¿Cuáles son los eventos recientes sobre el cobalto?');
    expect(a.lang).toBe('es');
    const cited = a.citations.filter((c) => c.type === 'event');
    expect(cited.length).toBeGreaterThan(0);
    for (const c of cited) {
      expect(c.url).toMatch(/&lang=es$/);
      const record = (await get(c.url)).data.find((x: Json) => x.id === c.id);
      expect(record).toMatchObject({ lang: 'es', title: c.title });
      expect(c.quote).toContain(`title: ${record.title}`);
      expect(a.answer).toContain(`«${record.title}»`);
    }
    expect(a.answer).toContain('«RD del Congo sustituye su prohibición de exportar cobalto por cuotas»');
    expect(a.answer).not.toMatch(/inglés/);
  });

  it('says plainly when the data cannot answer', async () => {
    const a = await ask('Wer hat die Fußball-Weltmeisterschaft 2014 gewonnen?');
    expect(a).toMatchObject({ lang: 'de', citations: [], confidence: 0, mode: 'grounded' });
    expect(a.answer).toMatch(/nicht beantworten/);
  });
});
