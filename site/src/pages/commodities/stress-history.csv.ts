import type { APIRoute } from 'astro';
import { BUILD_PATHS } from '../../../../contract/layout.ts';
import { CSV_TYPE } from '../../../../contract/http.ts';
import { readText } from '../../lib/data';

/**
 * Every commodity's monthly stress history in one file (id,date,index,band,coverage): the build's
 * data/stress/commodities.csv, which the API does not serve under /data/, published with the pages.
 */
export const GET: APIRoute = () => new Response(readText(BUILD_PATHS.commodityStressCsv), { headers: { 'content-type': CSV_TYPE } });
