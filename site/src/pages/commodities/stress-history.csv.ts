import type { APIRoute } from 'astro';
import { readText } from '../../lib/data';

/**
 * Every commodity's monthly stress history in one file (id,date,index,band,coverage): the build's
 * data/stress/commodities.csv, which the API does not serve under /data/, published with the pages.
 */
export const GET: APIRoute = () => new Response(readText('data/stress/commodities.csv'), { headers: { 'content-type': 'text/csv; charset=utf-8' } });
