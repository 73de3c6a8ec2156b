import { EXPOSED_HEADERS, linkHeader } from '../contract/http.ts';

/**
 * Headers every response carries: licence and backlink, nosniff, open CORS, and the build being
 * served (`X-Build`: bodies name the build in which their content last changed, so a client that
 * wants the serving build reads it here or at /healthz).
 */
export function commonHeaders(baseUrl: string, build?: string): Record<string, string> {
  return {
    'x-content-type-options': 'nosniff',
    link: linkHeader(baseUrl),
    'access-control-allow-origin': '*',
    'access-control-expose-headers': EXPOSED_HEADERS.join(', '),
    ...(build ? { 'x-build': build } : {}),
  };
}

/**
 * The Content-Security-Policy of every HTML page: scripts and styles from our origin only (the
 * site stage moves every script Astro would inline into a file, and refuses a page with an inline
 * script or <style>: pipeline/site-stage.ts). Style attributes stay allowed (`style-src-attr`):
 * the charts size their boxes with them (55 distinct values), and an attribute cannot run code.
 * Images may be data: URIs (the favicon, the chart downloads).
 */
const PAGE_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "style-src-attr 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

/** Embed pages (`/<lang>/embed/<kind>/<key>/`): the pages the site offers for framing. */
export const EMBED_PAGE = /^\/[a-z]{2}\/embed\//;

/**
 * Headers of an HTML page at `path`, the same on Node (api/app.ts) and in the Worker's `_headers`
 * (edge/assets.ts): the CSP, and who may frame the page. An embed page may be framed by any
 * origin (that is what it is for: its code is offered to copy on every chart); every other page
 * by none (`frame-ancestors 'none'`, and X-Frame-Options for browsers without CSP level 2).
 */
export function pageHeaders(path: string): Record<string, string> {
  return EMBED_PAGE.test(path)
    ? { 'content-security-policy': `${PAGE_POLICY}; frame-ancestors *` }
    : { 'content-security-policy': `${PAGE_POLICY}; frame-ancestors 'none'`, 'x-frame-options': 'DENY' };
}

export function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/**
 * Strong ETag of bytes computed per request (parameterised responses): FNV-1a over the bytes,
 * 64 bits as two 32-bit lanes. Synchronous and portable (no node:crypto, no async WebCrypto on
 * the hot path); a static file's ETag is its SHA-256 from the manifest.
 */
export function etagOf(body: Uint8Array): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ body.length;
  for (let i = 0; i < body.length; i++) {
    const x = body[i] as number;
    a = Math.imul(a ^ x, 0x01000193);
    b = Math.imul(b ^ x, 0x0100019d);
  }
  return `"${(a >>> 0).toString(16).padStart(8, '0')}${(b >>> 0).toString(16).padStart(8, '0')}-${body.length.toString(16)}"`;
}
