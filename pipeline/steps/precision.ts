import { round } from './reserves.ts';

/**
 * The precision figures are published at, applied where a value leaves the computation for an
 * output (never inside one): docs/api.md, Precision. A publisher's own figure otherwise goes out
 * as its file gives it; these are the rules for the values that are not.
 */

/**
 * Prices, in the currency per unit: 2 decimals, the cent. EIA and the World Bank publish 2
 * decimals; the IMF workbook stores unrounded monthly averages (PURAN 2025-09:
 * 62.87544369946743), and a scaled EI price is a product.
 */
export const PRICE_DECIMALS = 2;
/** Shares of a world or import total (0–1): 4 decimals, a hundredth of a percentage point. */
export const SHARE_DECIMALS = 4;

export const publishedPrice = (x: number) => round(x, PRICE_DECIMALS);
export const publishedShare = (x: number) => round(x, SHARE_DECIMALS);
