import type { z } from 'zod';
import type { SearchHit, SearchQuery } from '../../contract/api.ts';
import type { LoadedBuild } from '../build.ts';
import { searchBuild } from '../search/engine.ts';

export type SearchParams = z.output<typeof SearchQuery>;
export type Hit = z.infer<typeof SearchHit>;

/**
 * Search briefings and scenarios of a build: keyword evidence and vectors over the build's Orama
 * index, misspellings corrected, compounds split, an absolute score with hits under the threshold
 * dropped (api/search/engine.ts, docs/search.md). Each hit's `snippet` is plain text, its
 * `highlights` the matched words as offsets. Asynchronous because a build embedded through an
 * OpenAI-compatible endpoint embeds the query through it too; with the local vectors (the
 * default) nothing in it waits on I/O. The HTTP route, the MCP tool and the answerer call this.
 */
export function searchDocuments(b: LoadedBuild, q: SearchParams): Promise<Hit[]> {
  return searchBuild(b, q);
}
