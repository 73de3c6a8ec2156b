import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LEXICON_FILE } from '../search/lexicon.ts';
import { publishSearchIndex } from '../search/stage.ts';
import { codeHash } from '../code-hash.ts';
import { cachedStage, keyOf } from '../stage-cache.ts';
import { step } from './values.ts';

/** The search index: reused from the live build when its inputs and its code are unchanged. */
export default step({
  name: 'search index',
  inputs: ['writer', 'stages', 'live', 'content', 'briefings', 'catalogue', 'statuses', 'names', 'opts', 'fx'],
  outputs: ['search'],
  run: async ({ writer, stages, live, content, briefings, catalogue, statuses, names, opts, fx }) => ({
    search: await cachedStage({
      writer,
      stages,
      previous: live,
      name: 'search',
      prefix: 'search/',
      key: keyOf(
        await codeHash(import.meta.filename),
        // The lexicon the stage reads (from the build's data folder, not the repository's); a missing file is an empty lexicon.
        await readFile(join(opts.dataDir, LEXICON_FILE), 'utf8').catch(() => null),
        briefings,
        content.scenarios,
        catalogue,
        // Country names come from the country-codes source.
        statuses.find((s) => s.id === 'country-codes')?.sha256 ?? null,
        opts.embeddings?.baseUrl ?? null,
        opts.embeddings?.model ?? null,
      ),
      run: () =>
        publishSearchIndex(writer, {
          briefings,
          scenarios: content.scenarios,
          catalogue,
          names,
          dataDir: opts.dataDir,
          log: fx.log,
          fetch: fx.fetch,
          embeddings: opts.embeddings ?? null,
        }),
    }),
  }),
  detail: ({ search: r }) =>
    r.reused
      ? `unchanged, ${r.files} files reused`
      : `${r.result.documents} documents, ${r.result.embedder.kind} vectors${r.distrusted ? ` (not reused: ${r.distrusted})` : ''}`,
});
