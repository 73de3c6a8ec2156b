import { type Lang, type Token } from './text.ts';

/** Function and question words, folded: the words that give a language away in a short question. */
const WORDS: Record<Lang, string[]> = {
  en: ['the', 'is', 'are', 'was', 'were', 'what', 'whats', 'how', 'which', 'who', 'whom', 'of', 'in', 'on', 'does', 'do', 'did', 'much', 'many', 'and', 'for', 'with', 'about', 'any', 'there', 'has', 'have', 'latest', 'current', 'currently', 'today', 'show', 'tell', 'me', 'give', 'largest', 'biggest', 'price', 'storage', 'full', 'country', 'its', 'at', 'by', 'to', 'from', 'recent', 'happened', 'events', 'share', 'top', 'producer', 'world', 'stress', 'index'],
  fr: ['le', 'la', 'les', 'des', 'du', 'est', 'sont', 'quel', 'quelle', 'quels', 'quelles', 'combien', 'qui', 'au', 'aux', 'l', 'd', 'qu', 'dans', 'sur', 'pour', 'avec', 'actuel', 'actuelle', 'actuellement', 'ou', 'prix', 'stockage', 'pays', 'taux', 'niveau', 'depuis', 'stocks', 'rempli', 'remplis', 'premier', 'plus', 'grand', 'producteur', 'evenements', 'recents', 'part', 'mondiale', 'indice', 'une', 'un', 'il', 'y', 'a', 'ete', 'etait', 'sont'],
  de: ['der', 'die', 'das', 'den', 'dem', 'ist', 'sind', 'war', 'wie', 'wer', 'was', 'welche', 'welcher', 'welches', 'hoch', 'viel', 'im', 'am', 'von', 'und', 'zu', 'gibt', 'aktuell', 'aktuelle', 'derzeit', 'gerade', 'wieviel', 'wo', 'hat', 'haben', 'ein', 'eine', 'einer', 'grosste', 'grosster', 'preis', 'gefullt', 'liegt', 'steht', 'beim', 'fur', 'uber', 'nach', 'jungste', 'neueste', 'ereignisse', 'anteil', 'weltweit', 'stand', 'wieweit', 'voll', 'seit'],
  es: ['el', 'los', 'las', 'la', 'cual', 'cuales', 'cuanto', 'cuanta', 'cuantos', 'cuantas', 'que', 'del', 'esta', 'estan', 'hay', 'como', 'precio', 'almacenamiento', 'lleno', 'llenos', 'y', 'por', 'para', 'actual', 'actualmente', 'quien', 'mayor', 'son', 'sobre', 'nivel', 'al', 'fue', 'recientes', 'sucesos', 'productor', 'cuota', 'mundial', 'indice', 'estres', 'de', 'en', 'un', 'una'],
};
const TABLE = new Map<string, Lang[]>();
for (const [lang, words] of Object.entries(WORDS) as [Lang, string[]][]) for (const w of words) TABLE.set(w, [...(TABLE.get(w) ?? []), lang]);

/** Scores of each language from the words and the letters of a question. */
export function languageScores(text: string, tokens: readonly Token[]): Record<Lang, number> {
  const score: Record<Lang, number> = { en: 0, fr: 0, de: 0, es: 0 };
  for (const t of tokens) {
    const langs = TABLE.get(t.norm);
    if (langs) for (const l of langs) score[l] += 1 / langs.length;
  }
  if (/[¿¡ñ]/i.test(text)) score.es += 3;
  if (/[áíóú]/i.test(text)) score.es += 1;
  if (/[äöüß]/i.test(text)) score.de += 2;
  if (/[èêàçùœîûë]/i.test(text)) score.fr += 1.5;
  if (/\b(?:l|d|qu|n|s|j)['’]\p{L}/iu.test(text)) score.fr += 2;
  if (/\b\w+['’]s\b/.test(text)) score.en += 2;
  return score;
}

/** The best-scoring language; English on a tie with nothing to go on. */
export function pickLanguage(score: Record<Lang, number>): Lang {
  let best: Lang = 'en';
  for (const l of ['fr', 'de', 'es'] as const) if (score[l] > score[best] + 1e-9) best = l;
  return best;
}
