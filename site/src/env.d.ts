/// <reference types="astro/client" />

/** Injected by pipeline/site-stage.ts through Vite's `define`: the build being written. */
declare const __CHOKEPOINT_SITE__: import('../../pipeline/site-stage.ts').SiteContext;
