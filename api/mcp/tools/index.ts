import { TOOLS, type ToolName } from '../../../contract/tools.ts';
import type { ToolModule } from './common.ts';
import compare_countries from './compare_countries.ts';
import get_commodity from './get_commodity.ts';
import get_country_profile from './get_country_profile.ts';
import get_price from './get_price.ts';
import get_reserve from './get_reserve.ts';
import get_reserve_timeseries from './get_reserve_timeseries.ts';
import list_commodities from './list_commodities.ts';
import list_events from './list_events.ts';
import list_scenarios from './list_scenarios.ts';
import search_briefings from './search_briefings.ts';

/** The handler of every tool in contract/tools.ts, by name (one module each). */
export const TOOL_MODULES: { readonly [N in ToolName]: ToolModule<N> } = {
  get_reserve,
  get_price,
  compare_countries,
  list_scenarios,
  search_briefings,
  get_country_profile,
  list_commodities,
  get_commodity,
  get_reserve_timeseries,
  list_events,
};

for (const t of TOOLS) if (TOOL_MODULES[t.name]?.name !== t.name) throw new Error(`MCP tool ${t.name} has no handler`);
