import type { z } from 'zod';
import { docOf } from '../../contract/json-schema.ts';
import { InputFreshness, StressBand, StressComponent } from '../../contract/stress.ts';
import { MCP_REFERENCE, TOOLS } from '../../contract/tools.ts';

/**
 * Reference material too long for a tool description, as Markdown resources the descriptions
 * and the server instructions point to: how the stress index is made (bands, components,
 * freshness) and what each field of a tool result means. Both are written from the contract's
 * own descriptions, so they say what the schemas say and change with them.
 */
export const REFERENCE = MCP_REFERENCE;

/** Keys every result carries: explained once, at the top of the glossary. */
const COMMON = ['as_of', 'license', 'attribution', 'sources', 'notes'];

const describe = (schema: z.ZodType | undefined) => (schema ? (docOf(schema).description ?? '') : '');
const shapeOf = (schema: z.ZodType): Record<string, z.ZodType> => (schema as unknown as { shape?: Record<string, z.ZodType> }).shape ?? {};

export function methodologyText(baseUrl: string): string {
  const c = StressComponent.shape;
  return [
    '# Chokepoint stress index: the method in brief',
    '',
    "A commodity's stress index (0–100) says how much supply stress its market shows now; a country's says which share of its primary energy supply is at risk. Every result gives the index with its band, its components and the date of each input, so the figure can be recomputed.",
    '',
    '## Bands',
    '',
    describe(StressBand),
    '',
    "## Components of a commodity's index",
    '',
    `- weight: ${describe(c.weight)}`,
    `- freshness_factor: ${describe(c.freshness_factor)}`,
    `- effective_weight: ${describe(c.effective_weight)}`,
    `- raw: ${describe(c.raw)}`,
    `- score: ${describe(c.score)}`,
    `- contribution: ${describe(c.contribution)}`,
    `- input_freshness: ${describe(InputFreshness)}`,
    '',
    'The index is the sum of the contributions. A commodity without a fresh market input gets no band.',
    '',
    '## Further',
    '',
    `- What each field of a result means: ${REFERENCE.fields}`,
    `- The whole methodology, its sources and their licences: ${baseUrl}/llms.txt and ${baseUrl}/openapi.json`,
  ].join('\n');
}

export function fieldsText(): string {
  const common = shapeOf(TOOLS[0].outputSchema);
  const lines = ['# Fields of the Chokepoint tool results', '', '## Every result', ''];
  for (const k of COMMON) if (common[k]) lines.push(`- \`${k}\`: ${describe(common[k])}`);
  for (const t of TOOLS) {
    const shape = shapeOf(t.outputSchema);
    const own = Object.keys(shape).filter((k) => !COMMON.includes(k));
    if (!own.length) continue;
    lines.push('', `## ${t.name}`, '');
    for (const k of own) lines.push(`- \`${k}\`${describe(shape[k]) ? `: ${describe(shape[k])}` : ''}`);
  }
  lines.push('', `How the stress index is made: ${REFERENCE.methodology}`);
  return lines.join('\n');
}
