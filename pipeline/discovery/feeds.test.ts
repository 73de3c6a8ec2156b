import { describe, expect, it } from 'vitest';
import type { Briefing, Event } from '../../contract/content.ts';
import { briefingsFeed, entryUrn, eventsFeed, xmlEscape } from './feeds.ts';

/** A minimal, strict XML reader for the feeds: elements, attributes, text, the five entities and character references. */
interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
}

function parseXml(src: string): XmlNode {
  let i = 0;
  const fail = (msg: string): never => {
    throw new Error(`${msg} at ${i}: ${JSON.stringify(src.slice(i, i + 30))}`);
  };
  const isNameChar = (c: string | undefined) =>
    c !== undefined && (c === '_' || c === ':' || c === '-' || c === '.' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'));
  const isSpace = (c: string | undefined) => c === ' ' || c === '\n' || c === '\t' || c === '\r';
  const skipSpace = () => {
    while (isSpace(src[i])) i++;
  };
  const name = () => {
    const start = i;
    while (isNameChar(src[i])) i++;
    if (i === start) fail('expected a name');
    return src.slice(start, i);
  };
  const decode = (raw: string): string => {
    let out = '';
    for (let k = 0; k < raw.length; k++) {
      const c = raw[k]!;
      if (c === '<') fail('raw < in text');
      if (c !== '&') {
        out += c;
        continue;
      }
      const end = raw.indexOf(';', k);
      if (end < 0) fail('unterminated entity');
      const ent = raw.slice(k + 1, end);
      const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
      if (ent in named) out += named[ent];
      else if (ent.startsWith('#x')) out += String.fromCodePoint(parseInt(ent.slice(2), 16));
      else if (ent.startsWith('#')) out += String.fromCodePoint(parseInt(ent.slice(1), 10));
      else fail(`unknown entity &${ent};`);
      k = end;
    }
    return out;
  };
  const element = (): XmlNode => {
    if (src[i] !== '<') fail('expected <');
    i++;
    const node: XmlNode = { name: name(), attrs: {}, children: [], text: '' };
    for (;;) {
      skipSpace();
      if (src.startsWith('/>', i)) {
        i += 2;
        return node;
      }
      if (src[i] === '>') {
        i++;
        break;
      }
      const attr = name();
      if (attr in node.attrs) fail(`duplicate attribute ${attr}`);
      skipSpace();
      if (src[i] !== '=') fail('expected =');
      i++;
      skipSpace();
      const q = src[i];
      if (q !== '"' && q !== "'") fail('expected a quoted value');
      const end = src.indexOf(q!, i + 1);
      if (end < 0) fail('unterminated attribute');
      node.attrs[attr] = decode(src.slice(i + 1, end));
      i = end + 1;
    }
    for (;;) {
      if (i >= src.length) fail(`unclosed <${node.name}>`);
      if (src.startsWith('</', i)) {
        i += 2;
        const closing = name();
        if (closing !== node.name) fail(`</${closing}> closes <${node.name}>`);
        skipSpace();
        if (src[i] !== '>') fail('expected >');
        i++;
        return node;
      }
      if (src.startsWith('<!', i) || src.startsWith('<?', i)) fail('unexpected markup');
      if (src[i] === '<') node.children.push(element());
      else {
        const end = src.indexOf('<', i);
        node.text += decode(src.slice(i, end < 0 ? src.length : end));
        i = end < 0 ? src.length : end;
      }
    }
  };
  if (!src.startsWith('<?xml version="1.0" encoding="utf-8"?>')) fail('missing XML declaration');
  i = src.indexOf('?>') + 2;
  skipSpace();
  const root = element();
  skipSpace();
  if (i !== src.length) fail('content after the root element');
  return root;
}

const child = (n: XmlNode, name: string) => n.children.find((c) => c.name === name);
const all = (n: XmlNode, name: string) => n.children.filter((c) => c.name === name);

const NASTY = `Gas & oil: <"prices"> 'rise' — Überraschung, café, 石油 🛢️`;
const BASE = 'https://chokepoint.example';

const briefing = (id: string, lang: Briefing['lang'], published_at: string, title = `Title ${id}`): Briefing => ({
  id,
  lang,
  translation_key: id.replace(/-(en|fr|de|es)$/, ''),
  title,
  summary: `Summary of ${id} & more`,
  body: `# ${title}\n\nBody with <b>markup</b> & an ampersand.`,
  published_at,
  commodities: ['energy.gas'],
  countries: ['DEU'],
  series: [],
});

const event = (id: string, date: string, title = `Event ${id}`): Event => ({
  id,
  date,
  category: 'infrastructure',
  effect: 'tightening',
  kind: 'one-off',
  title,
  summary: `What happened (${id}).`,
  translations: {
    fr: { title: `Événement ${id}`, summary: `Ce qui s'est passé (${id}).` },
    de: { title: `Ereignis ${id}`, summary: `Was geschah (${id}).` },
    es: { title: `Suceso ${id}`, summary: `Lo que ocurrió (${id}).` },
  },
  commodities: ['energy.gas', 'energy.oil'],
  countries: ['DEU', 'RUS'],
  source_url: `https://www.example.org/report?id=${id}&lang=en`,
  source_name: 'Example ministry',
});

describe('xmlEscape', () => {
  it('escapes the five special characters and drops characters XML cannot carry', () => {
    expect(xmlEscape(`a&b<c>d"e'f`)).toBe('a&amp;b&lt;c&gt;d&quot;e&apos;f');
    expect(xmlEscape('ok\u0000\u0008\u000b\ufffe\ud800 fine\t\n')).toBe('ok fine\t\n');
    expect(xmlEscape('é 石油 🛢️')).toBe('é 石油 🛢️');
  });
});

describe('briefings feed', () => {
  const briefings = [
    briefing('2026-01-10-a-en', 'en', '2026-01-10'),
    briefing('2026-02-01-b-en', 'en', '2026-02-01', NASTY),
    briefing('2026-02-01-b-fr', 'fr', '2026-02-01', 'Le gaz'),
    briefing('2025-12-24-c-en', 'en', '2025-12-24'),
  ];
  const xml = briefingsFeed({ baseUrl: BASE, lang: 'en', briefings, updated: new Date('2026-02-01T00:00:00Z') });
  const feed = parseXml(xml);

  it('is well-formed Atom 1.0 with the feed metadata RFC 4287 requires', () => {
    expect(feed.name).toBe('feed');
    expect(feed.attrs.xmlns).toBe('http://www.w3.org/2005/Atom');
    expect(feed.attrs['xml:lang']).toBe('en');
    expect(child(feed, 'id')!.text).toBe(`${BASE}/feeds/briefings-en.atom`);
    expect(child(feed, 'title')!.text).toContain('Chokepoint');
    expect(child(feed, 'updated')!.text).toBe('2026-02-01T00:00:00Z');
    expect(child(child(feed, 'author')!, 'name')!.text).toBe('Chokepoint');
    const links = all(feed, 'link');
    expect(links.find((l) => l.attrs.rel === 'self')!.attrs.href).toBe(`${BASE}/feeds/briefings-en.atom`);
    expect(links.find((l) => l.attrs.rel === 'license')!.attrs.href).toBe('https://creativecommons.org/licenses/by/4.0/');
  });

  it('lists the briefings of its language only, newest first, each with id, title, summary, updated and a link', () => {
    const entries = all(feed, 'entry');
    expect(entries).toHaveLength(3);
    expect(entries.map((e) => child(e, 'updated')!.text)).toEqual(['2026-02-01T00:00:00Z', '2026-01-10T00:00:00Z', '2025-12-24T00:00:00Z']);
    for (const e of entries) {
      expect(child(e, 'id')!.text).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(child(e, 'link')!.attrs.href).toBe(`${BASE}/v1/briefings?lang=en`);
      expect(child(e, 'summary')!.text).toContain('&');
    }
    expect(new Set(entries.map((e) => child(e, 'id')!.text)).size).toBe(3);
  });

  it('round-trips titles with & < > " \' and non-ASCII characters', () => {
    const first = all(feed, 'entry')[0]!;
    expect(child(first, 'title')!.text).toBe(NASTY);
    expect(child(first, 'content')!.text).toContain('<b>markup</b> & an ampersand');
    expect(xml).not.toContain('<b>');
  });

  it('keeps entry ids stable across hosts and builds', () => {
    expect(entryUrn('chokepoint:briefing:x')).toBe(entryUrn('chokepoint:briefing:x'));
    expect(entryUrn('chokepoint:briefing:x')).not.toBe(entryUrn('chokepoint:briefing:y'));
    const other = parseXml(briefingsFeed({ baseUrl: 'https://other.example', lang: 'en', briefings }));
    expect(all(other, 'entry').map((e) => child(e, 'id')!.text)).toEqual(all(feed, 'entry').map((e) => child(e, 'id')!.text));
    expect(child(other, 'updated')!.text).toBe('2026-02-01T00:00:00Z');
  });

  it('is still a valid feed when a language has no briefing', () => {
    const empty = parseXml(briefingsFeed({ baseUrl: BASE, lang: 'es', briefings, updated: new Date('2026-03-01T10:00:00.123Z') }));
    expect(all(empty, 'entry')).toHaveLength(0);
    expect(child(empty, 'updated')!.text).toBe('2026-03-01T10:00:00Z');
  });
});

describe('events feed', () => {
  const events = [event('2025-06-01-a', '2025-06-01'), event('2025-07-15-b', '2025-07-15', NASTY), event('2024-01-01-c', '2024-01-01')];
  const xml = eventsFeed({ baseUrl: BASE, events, updated: '2025-07-15' });
  const feed = parseXml(xml);

  it('is well-formed and lists every event newest first', () => {
    const entries = all(feed, 'entry');
    expect(entries).toHaveLength(3);
    expect(entries.map((e) => child(e, 'published')!.text)).toEqual(['2025-07-15T00:00:00Z', '2025-06-01T00:00:00Z', '2024-01-01T00:00:00Z']);
    expect(child(entries[0]!, 'title')!.text).toBe(NASTY);
    expect(child(feed, 'updated')!.text).toBe('2025-07-15T00:00:00Z');
  });

  it('links each entry to its public source (escaped) and to the API', () => {
    const e = all(feed, 'entry')[1]!;
    const links = all(e, 'link');
    expect(links.find((l) => l.attrs.rel === 'alternate')!.attrs.href).toBe('https://www.example.org/report?id=2025-06-01-a&lang=en');
    expect(links.find((l) => l.attrs.rel === 'related')!.attrs.href).toBe(`${BASE}/v1/events?since=2025-06-01&until=2025-06-01`);
    expect(xml).toContain('report?id=2025-06-01-a&amp;lang=en');
    const terms = all(e, 'category').map((c) => c.attrs.term);
    expect(terms).toEqual(['infrastructure', 'energy.gas', 'energy.oil', 'DEU', 'RUS']);
  });
});
