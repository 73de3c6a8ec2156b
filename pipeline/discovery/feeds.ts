import { createHash } from 'node:crypto';
import { LICENSE, LICENSE_URL } from '../../contract/common.ts';
import type { Briefing, BriefingLang, Event } from '../../contract/content.ts';
import { LANG_LABEL } from '../../contract/languages.ts';

/** Atom 1.0 (RFC 4287) feeds of the briefings (one per language) and of the events. */

export const ATOM_TYPE = 'application/atom+xml; charset=utf-8';

/** Characters XML 1.0 does not allow at all (controls, lone surrogates, U+FFFE/U+FFFF): dropped. */
const NOT_XML = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text or attribute value, escaped for XML (all five predefined entities). */
export function xmlEscape(s: string): string {
  return s.replace(NOT_XML, '').replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&apos;');
}

const URL_NAMESPACE = '6ba7b8119dad11d180b400c04fd430c8';

/** A stable `urn:uuid:` (UUID v5 in the URL namespace, RFC 9562) for an entry id: it never changes with the host or the build. */
export function entryUrn(name: string): string {
  const h = createHash('sha1').update(Buffer.from(URL_NAMESPACE, 'hex')).update(name).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `urn:uuid:${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** RFC 3339 timestamp of a YYYY-MM-DD date (midnight UTC) or of a Date. */
const stamp = (d: string | Date) =>
  typeof d === 'string'
    ? /^\d{4}-\d{2}-\d{2}$/.test(d)
      ? `${d}T00:00:00Z`
      : new Date(d).toISOString().replace(/\.\d{3}Z$/, 'Z')
    : d.toISOString().replace(/\.\d{3}Z$/, 'Z');

interface Element {
  name: string;
  attrs?: Record<string, string | undefined>;
  text?: string;
  children?: Element[];
}

function render(e: Element, indent: string): string {
  const attrs = Object.entries(e.attrs ?? {})
    .filter((kv): kv is [string, string] => kv[1] !== undefined)
    .map(([k, v]) => ` ${k}="${xmlEscape(v)}"`)
    .join('');
  if (e.children?.length) {
    return `${indent}<${e.name}${attrs}>\n${e.children.map((c) => render(c, `${indent}  `)).join('\n')}\n${indent}</${e.name}>`;
  }
  if (e.text !== undefined) return `${indent}<${e.name}${attrs}>${xmlEscape(e.text)}</${e.name}>`;
  return `${indent}<${e.name}${attrs}/>`;
}

const el = (name: string, text?: string, attrs?: Element['attrs']): Element => ({ name, ...(text !== undefined ? { text } : {}), ...(attrs ? { attrs } : {}) });
const link = (rel: string, href: string, type?: string, title?: string): Element => el('link', undefined, { rel, href, type, title });

function feed(x: {
  baseUrl: string;
  selfPath: string;
  lang?: string;
  title: string;
  subtitle: string;
  updated: string;
  alternate: string;
  entries: Element[];
}): string {
  const root: Element = {
    name: 'feed',
    attrs: { xmlns: 'http://www.w3.org/2005/Atom', 'xml:lang': x.lang },
    children: [
      el('id', `${x.baseUrl}${x.selfPath}`),
      el('title', x.title, { type: 'text' }),
      el('subtitle', x.subtitle, { type: 'text' }),
      el('updated', x.updated),
      link('self', `${x.baseUrl}${x.selfPath}`, 'application/atom+xml'),
      link('alternate', x.alternate, 'application/json'),
      link('license', LICENSE_URL, 'text/html', LICENSE),
      { name: 'author', children: [el('name', 'Chokepoint'), el('uri', `${x.baseUrl}/`)] },
      el('rights', `${LICENSE} (${LICENSE_URL}). Reuse requires attribution with a link back to ${x.baseUrl}/.`, { type: 'text' }),
      el('generator', 'Chokepoint pipeline', { uri: `${x.baseUrl}/` }),
      ...x.entries,
    ],
  };
  return `<?xml version="1.0" encoding="utf-8"?>\n${render(root, '')}\n`;
}

function categories(baseUrl: string, commodities: readonly string[], countries: readonly string[]): Element[] {
  return [
    ...commodities.map((c) => el('category', undefined, { term: c, scheme: `${baseUrl}/v1/commodities/` })),
    ...countries.map((c) => el('category', undefined, { term: c, scheme: `${baseUrl}/v1/countries/` })),
  ];
}

/** The newest date among entries, else the given fallback. */
function newest(dates: readonly string[], fallback: Date | string | undefined): string {
  const top = [...dates].sort().at(-1);
  if (fallback !== undefined) return stamp(fallback);
  return top ? stamp(top) : stamp(new Date(0));
}

export interface BriefingsFeedOptions {
  baseUrl: string;
  lang: BriefingLang;
  /** Briefings of any language; only those in `lang` are listed. */
  briefings: readonly Briefing[];
  /** The feed's atom:updated; default: the newest publication date. */
  updated?: Date | string;
}

/** `/feeds/briefings-<lang>.atom`: the briefings in one language, newest first. */
export function briefingsFeed({ baseUrl, lang, briefings, updated }: BriefingsFeedOptions): string {
  const listUrl = `${baseUrl}/v1/briefings?lang=${lang}`;
  const items = briefings.filter((b) => b.lang === lang).sort((a, b) => b.published_at.localeCompare(a.published_at) || a.id.localeCompare(b.id));
  const entries: Element[] = items.map((b) => ({
    name: 'entry',
    children: [
      el('id', entryUrn(`chokepoint:briefing:${b.id}`)),
      el('title', b.title, { type: 'text' }),
      link('alternate', listUrl, 'application/json'),
      el('published', stamp(b.published_at)),
      el('updated', stamp(b.published_at)),
      el('summary', b.summary, { type: 'text' }),
      el('content', b.body, { type: 'text' }),
      ...categories(baseUrl, b.commodities, b.countries),
    ],
  }));
  return feed({
    baseUrl,
    selfPath: `/feeds/briefings-${lang}.atom`,
    lang,
    title: `Chokepoint — briefings (${LANG_LABEL[lang]})`,
    subtitle: 'Editorial briefings on supply stress for raw materials and energy, newest first.',
    updated: newest(
      items.map((b) => b.published_at),
      updated,
    ),
    alternate: listUrl,
    entries,
  });
}

export interface EventsFeedOptions {
  baseUrl: string;
  events: readonly Event[];
  /** The feed's atom:updated; default: the newest event date. */
  updated?: Date | string;
}

/** `/feeds/events.atom`: tagged events, newest first; each entry links to its public source and to the API. */
export function eventsFeed({ baseUrl, events, updated }: EventsFeedOptions): string {
  const items = [...events].sort((a, b) => b.date.localeCompare(a.date) || a.id.localeCompare(b.id));
  const entries: Element[] = items.map((e) => ({
    name: 'entry',
    children: [
      el('id', entryUrn(`chokepoint:event:${e.id}`)),
      el('title', e.title, { type: 'text' }),
      link('alternate', e.source_url, 'text/html', e.source_name),
      link('related', `${baseUrl}/v1/events?since=${e.date}&until=${e.date}`, 'application/json'),
      el('published', stamp(e.date)),
      el('updated', stamp(e.date)),
      el('summary', e.summary, { type: 'text' }),
      el('content', `${e.summary}\n\nCategory: ${e.category}. Source: ${e.source_name}, ${e.source_url}`, { type: 'text' }),
      el('category', undefined, { term: e.category, scheme: `${baseUrl}/v1/events?category=`, label: e.category }),
      ...categories(baseUrl, e.commodities, e.countries),
    ],
  }));
  return feed({
    baseUrl,
    selfPath: '/feeds/events.atom',
    lang: 'en',
    title: 'Chokepoint — geopolitical events',
    subtitle: 'Tagged events that bear on the supply of raw materials and energy (conflict, sanction, catastrophe, policy, infrastructure), newest first.',
    updated: newest(
      items.map((e) => e.date),
      updated,
    ),
    alternate: `${baseUrl}/v1/events`,
    entries,
  });
}
