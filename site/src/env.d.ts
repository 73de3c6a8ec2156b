/// <reference types="astro/client" />

/** Injected by pipeline/site-stage.ts (type: contract/site.ts) through Vite's `define`: the build being written. */
declare const __CHOKEPOINT_SITE__: import('../../contract/site.ts').SiteContext;
