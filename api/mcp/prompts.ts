import { completable, type GetPromptResult, type McpServer, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { LANGS } from '../../contract/common.ts';
import { LANG_NAME_EN, type Lang } from '../../contract/languages.ts';
import type { LoadedBuild } from '../build.ts';
import { ApiError } from '../problem.ts';
import { resolveCommodity, resolveCountry, resolveReserve } from '../resolve.ts';
import type { McpServerDeps } from './deps.ts';
import { countryResource, reserveResource, type ResourceText } from './resources.ts';
import { errorText, explained, identifierArg, rpcError } from './tools/common.ts';
import { CommodityParam, CountryParam } from '../../contract/api.ts';
import { TOOL_MODULES } from './tools/index.ts';

function currentBuild(deps: McpServerDeps): LoadedBuild {
  const b = deps.source.current();
  if (!b) throw rpcError(ProtocolErrorCode.InternalError, 'no build has been published yet; try again in 30 seconds');
  return b;
}

/** Run a query for a prompt; an unknown identifier is an invalid-params error with the accepted form and the nearest identifiers. */
function orInvalid<T>(b: LoadedBuild, run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof ApiError) throw rpcError(ProtocolErrorCode.InvalidParams, errorText(b, err));
    throw err;
  }
}

async function runTool<T>(b: LoadedBuild, run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ApiError) throw rpcError(ProtocolErrorCode.InvalidParams, errorText(b, err));
    throw err;
  }
}

const embedded = (r: ResourceText) => ({ type: 'resource' as const, resource: { uri: r.uri, mimeType: 'application/json', text: r.text } });
const toolText = (call: string, value: unknown) => ({ type: 'text' as const, text: `Result of ${call}:\n${JSON.stringify(value)}` });
const lower = (v: string) => v.trim().toLowerCase();

/** A few prompts that frame a task over the tools, with the data they start from embedded. */
export function registerPrompts(mcp: McpServer, deps: McpServerDeps): void {
  const countryArg = completable(
    z.string().describe('Country: ISO 3166-1 alpha-3 (DEU) or alpha-2 (de), or its name in English, French, German or Spanish'),
    (v) => [...(deps.source.current()?.countries.values() ?? [])].map((c) => c.iso3).filter((c) => c.toLowerCase().startsWith(lower(v))),
  );
  const commodityArg = completable(z.string().describe('Commodity: code (gas, oil, cobalt), slug (energy.gas) or name (natural gas, Kobalt)'), (v) =>
    (deps.source.current()?.commodities.map((c) => c.code) ?? []).filter((c) => c.startsWith(lower(v))),
  );
  const langArg = z.string().optional().describe('Language of the briefing: en (default), fr, de or es');
  // reserve_outlook: only what has a published reserve (gas, oil; the countries of the commodity chosen).
  const reserveKeys = () => [...(deps.source.current()?.reserves.keys() ?? [])].sort();
  const reserveCommodityArg = completable(z.string().describe('Commodity with a strategic reserve: gas or oil (a slug or name resolves too)'), (v) =>
    [...new Set(reserveKeys().map((k) => k.split('/')[0]!))].filter((c) => c.startsWith(lower(v))),
  );
  const reserveCountryArg = completable(
    z
      .string()
      .describe(
        'Country of the reserve: ISO 3166-1 alpha-2 (de), eu for the EU aggregate, or its name; the completions list only the countries with a reserve',
      ),
    (v, ctx) => {
      const b = deps.source.current();
      const commodity = lower(ctx?.arguments?.commodity ?? '');
      const names = new Map([...(b?.countries.values() ?? [])].map((c) => [c.iso2.toLowerCase(), c.name.toLowerCase()]));
      names.set('eu', 'european union');
      return [
        ...new Set(
          reserveKeys()
            .filter((k) => !commodity || k.startsWith(`${commodity}/`) || b?.commodities.find((c) => c.code === k.split('/')[0])?.slug === commodity)
            .map((k) => k.split('/')[1]!),
        ),
      ].filter((iso2) => iso2.startsWith(lower(v)) || (names.get(iso2) ?? '').startsWith(lower(v)));
    },
  );

  mcp.registerPrompt(
    'country_supply_risk_briefing',
    {
      title: 'Country supply-risk briefing',
      description:
        "A short briefing on one country's exposure to supply shocks in energy and raw materials, from its Chokepoint profile, reserves, events and scenarios.",
      argsSchema: { country: countryArg, lang: langArg },
    },
    async ({ country, lang }): Promise<GetPromptResult> => {
      const b = currentBuild(deps);
      const c = orInvalid(b, () => resolveCountry(b, identifierArg(CountryParam, 'country', country)));
      const code = lower(lang || 'en');
      if (!(LANGS as readonly string[]).includes(code))
        throw rpcError(
          ProtocolErrorCode.InvalidParams,
          explained(
            `lang: '${lang}' is not a language of the briefing`,
            `one of ${LANGS.join(', ')}`,
            LANGS.filter((l) => code.startsWith(l)),
          ),
        );
      const language = LANG_NAME_EN[code as Lang];
      const profile = orInvalid(b, () => countryResource(b, c.iso3));
      return {
        description: `Supply-risk briefing for ${c.name}`,
        messages: [
          {
            role: 'user',
            content: {
              type: 'text',
              text: [
                `Write a supply-risk briefing for ${c.name} (${c.iso3}) in ${language}, about 250 words, for a policy reader.`,
                "Start from the country profile below (Chokepoint's stress index, import dependence and main suppliers per commodity, self-sufficiency, supplier concentration, reserves).",
                `Then use the tools: get_reserve for each reserve the profile lists, list_events with country=${c.iso3} for recent events, list_scenarios for the crisis scenarios that concern its most import-dependent commodities, and compare_countries with two or three neighbours to put the figures in context.`,
                'Name the three largest risks, each with its figures and their as_of dates. Do not invent figures: say when a value is missing.',
                'End with the attribution the results carry (CC-BY-4.0, "Source: Chokepoint" with the link).',
              ].join('\n'),
            },
          },
          { role: 'user', content: embedded(profile) },
        ],
      };
    },
  );

  mcp.registerPrompt(
    'commodity_stress_explainer',
    {
      title: 'Why is this commodity under stress?',
      description: "An explanation of one commodity's supply-stress index: which components drive it, who supplies the world, what could disrupt it.",
      argsSchema: { commodity: commodityArg },
    },
    async ({ commodity }): Promise<GetPromptResult> => {
      const b = currentBuild(deps);
      const slug = orInvalid(b, () => resolveCommodity(b, identifierArg(CommodityParam, 'commodity', commodity)));
      const sheet = await runTool(b, () => TOOL_MODULES.get_commodity.run(b, { slug }));
      const name = sheet.structured.name;
      return {
        description: `Stress explainer for ${name}`,
        messages: [
          {
            role: 'user',
            content: {
              type: 'text',
              text: [
                `Explain in about 200 words why ${name} (${slug}) has the supply-stress reading it has.`,
                'Use the commodity sheet below (the get_commodity result): go through the stress components (raw value, score, weight) from the largest contribution down, then the supplier concentration and the largest producers.',
                `Call list_scenarios with commodity=${slug.split('.')[1]} and list_events with commodity=${slug.split('.')[1]} for what could disrupt supply, and get_price for the latest price.`,
                'Give every figure with its as_of date; end with the attribution the results carry (CC-BY-4.0, "Source: Chokepoint" with the link).',
              ].join('\n'),
            },
          },
          { role: 'user', content: toolText(`get_commodity ${JSON.stringify({ slug })}`, sheet.structured) },
        ],
      };
    },
  );

  mcp.registerPrompt(
    'reserve_outlook',
    {
      title: 'Strategic reserve outlook',
      description: 'An assessment of one strategic reserve (EU gas storage, the US SPR): level against target and seasonal norm, trend, days of cover.',
      argsSchema: { commodity: reserveCommodityArg, country: reserveCountryArg },
    },
    async ({ commodity, country }): Promise<GetPromptResult> => {
      const b = currentBuild(deps);
      const [code, iso2] = orInvalid(b, () =>
        resolveReserve(b, identifierArg(CommodityParam, 'commodity', commodity), identifierArg(CountryParam, 'country', country)),
      ).split('/') as [string, string];
      const r = (await runTool(b, () => TOOL_MODULES.get_reserve.run(b, { commodity: code, country: iso2 }))).structured;
      const series = orInvalid(b, () => reserveResource(b, code, iso2));
      return {
        description: `Outlook for ${r.name}`,
        messages: [
          {
            role: 'user',
            content: {
              type: 'text',
              text: [
                `Assess ${r.name} as of ${r.as_of} in about 150 words.`,
                'Use the current reading below (level against the target that applies and against the seasonal norm, days of cover, recent flows) and the last year of the series after it.',
                `For earlier years, call get_reserve_timeseries with commodity=${code}, country=${iso2} and frequency=weekly.`,
                `Today is ${b.manifest.generated_at.slice(0, 10)}. Say whether the target looks reachable at the recent pace, counting days from today, not from the reading; if the target date has passed, say so and give the value on the newest day. If a source's freshness is late or stale (see sources and notes), say how old the reading is.`,
                'Give every figure with its date and end with the attribution (CC-BY-4.0, "Source: Chokepoint" with the link).',
              ].join('\n'),
            },
          },
          { role: 'user', content: toolText(`get_reserve ${JSON.stringify({ commodity: code, country: iso2 })}`, r) },
          { role: 'user', content: embedded(series) },
        ],
      };
    },
  );
}
