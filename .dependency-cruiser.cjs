/**
 * The layers of docs/architecture.md, enforced by `npm run lint`:
 *
 *   contract   schemas, problem types, limits, languages, source ids, tool descriptors
 *   lib        shared code both sides use (search text and index format, suggestions, formatting)
 *   pipeline   the build: sources → DuckDB → files          api   the server: Hono app, MCP, Node listener
 *                                                           edge  the Cloudflare Worker target (beside api, may use it)
 *   site       the readout pages, reading the build through the contract's types
 *   bin        entry points (build, serve, start)
 *
 * Each layer imports only from the layers below it; tests, benchmarks and evaluations may reach
 * any layer. No file-level cycles anywhere.
 */
const code = (layer) => `^${layer}/`;
const notTest = '\\.test\\.ts$|^test/|^bench/|^eval/';

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'A cycle makes two modules one: split out what both need.', from: {}, to: { circular: true } },
    {
      name: 'contract-is-the-bottom',
      severity: 'error',
      comment: 'contract/ depends on nothing of ours.',
      from: { path: code('contract') },
      to: { path: '^(lib|pipeline|api|edge|bin|site|test|bench|eval)/' },
    },
    { name: 'lib-above-contract-only', severity: 'error', from: { path: code('lib') }, to: { path: '^(pipeline|api|edge|bin|site|test|bench|eval)/' } },
    {
      name: 'pipeline-not-api',
      severity: 'error',
      comment: 'The build does not know the server: share through lib/ or contract/.',
      from: { path: code('pipeline'), pathNot: notTest },
      to: { path: '^(api|edge|bin|site|test|bench|eval)/' },
    },
    {
      name: 'api-not-pipeline',
      severity: 'error',
      comment: 'The server reads the build through contract/ (and lib/), never the pipeline code.',
      from: { path: code('api'), pathNot: notTest },
      to: { path: '^(pipeline|edge|bin|site|test|bench|eval)/' },
    },
    {
      name: 'edge-at-the-api-level',
      severity: 'error',
      comment: 'The Worker target composes the api/ app over contract/ and lib/; it knows neither the pipeline nor the entry points.',
      from: { path: code('edge'), pathNot: notTest },
      to: { path: '^(pipeline|bin|site|test|bench|eval)/' },
    },
    {
      name: 'site-reads-the-contract',
      severity: 'error',
      comment: 'The site reads the build through the contract types.',
      from: { path: code('site') },
      to: { path: '^(pipeline|api|edge|bin|test|bench|eval)/' },
    },
    { name: 'only-tests-import-tests', severity: 'error', from: { pathNot: notTest }, to: { path: '\\.test\\.ts$|^test/' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|\\.astro)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.astro'] },
    extraExtensionsToScan: ['.astro'],
  },
};
