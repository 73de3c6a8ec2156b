import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { Frequency, type ReserveMetric, TimeSeriesResponse } from '../../contract/reserves.ts';
import { type LoadedBuild, loadBuild } from '../build.ts';
import { getTimeseries, timeseriesPlan } from './reserves.ts';
import { timeseriesWindow, windowBody } from './timeseries-window.ts';
import { etagOfHash, hashBytes } from './window-hash.ts';

/**
 * The window written from pre-serialised points (api/queries/timeseries-window.ts) against the
 * answer it replaces: JSON.stringify of getTimeseries()'s envelope, for windows of every reserve,
 * metric and frequency of the test build, at random places and lengths (empty, within one
 * period, cut short, whole); and its ETag, a validator of those bytes.
 */

let build: LoadedBuild;
beforeAll(async () => {
  build = await loadBuild((p) => readFile(join(inject('distDir'), 'current', p)));
});

const day = (date: string, days: number) => new Date(Date.parse(date) + days * 86_400_000).toISOString().slice(0, 10);
/** A fixed pseudo-random sequence: the same windows on every run. */
function random(seed: number) {
  let s = seed;
  return () => (s = (Math.imul(s, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
}

interface Window {
  q: { commodity: string; country: string; metric: ReserveMetric; frequency: Frequency; from: string; to: string };
  want: string;
  got: ReturnType<typeof timeseriesWindow>;
}

function windows(): Window[] {
  const next = random(32);
  const out: Window[] = [];
  for (const [key, { series }] of build.reserves) {
    const [commodity, country] = key.split('/') as [string, string];
    for (const [metric, m] of Object.entries(series.metrics) as [ReserveMetric, { points: { date: string }[] }][]) {
      for (const frequency of Frequency.options) {
        if (frequency === 'daily' && series.native_frequency === 'weekly') continue;
        for (let n = 0; n < 40; n++) {
          const from = day(m.points[0]!.date, Math.floor(next() * m.points.length * 1.3) - 20);
          const q = { commodity, country, metric, frequency, from, to: day(from, Math.floor(next() * (n % 3 === 0 ? 12 : 800))) };
          out.push({ q, want: JSON.stringify(getTimeseries(build, q).envelope()), got: timeseriesWindow(build, timeseriesPlan(build, q)) });
        }
      }
    }
  }
  return out;
}

describe('a time-series window written from its bytes', () => {
  it('is byte for byte the envelope getTimeseries() gives, for every reserve, metric and frequency; null only when empty', () => {
    const all = windows();
    expect(all.length).toBeGreaterThan(100);
    for (const w of all) {
      if (!w.got) {
        expect(JSON.parse(w.want), JSON.stringify(w.q)).toMatchObject({ meta: { count: 0 } });
        continue;
      }
      const body = windowBody(w.got);
      expect(new TextDecoder().decode(body), JSON.stringify(w.q)).toBe(w.want);
      expect(w.got.length).toBe(body.byteLength);
    }
    // Empty windows were among them, and the answers are valid responses.
    expect(all.filter((w) => !w.got).length).toBeGreaterThan(0);
    for (const w of all.filter((x) => x.got).slice(0, 50)) expect(TimeSeriesResponse.safeParse(JSON.parse(w.want)).success).toBe(true);
  });

  it('has an ETag that is the hash of its bytes: one ETag for the same bytes, another for other bytes', () => {
    const all = windows().filter((w) => w.got);
    const byEtag = new Map<string, string>();
    const byBody = new Map<string, string>();
    for (const w of all) {
      const body = w.want;
      expect(byEtag.get(w.got!.etag) ?? body, JSON.stringify(w.q)).toBe(body);
      expect(byBody.get(body) ?? w.got!.etag).toBe(w.got!.etag);
      byEtag.set(w.got!.etag, body);
      byBody.set(body, w.got!.etag);
    }
    // The ETag composed from the parts is the hash of the bytes themselves.
    for (const w of all) expect(w.got!.etag, JSON.stringify(w.q)).toBe(etagOfHash(hashBytes(windowBody(w.got!))));
    expect(all[0]!.got!.etag).toMatch(/^"[0-9a-f]{16}-[0-9a-f]+"$/);
  });
});
