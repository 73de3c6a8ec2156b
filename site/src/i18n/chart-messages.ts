/**
 * The chart UI's words in the four languages of the site: the controls around a chart (time
 * range, comparison, downloads, embed code), what the client script says (in tooltips and the
 * live region) and the credit lines drawn in exports and embeds. What a chart shows (titles,
 * series, units, tables) comes from the site's catalogue (messages.ts), as the pages say it.
 * French is written with its narrow no-break spaces (U+202F) before : ; and in the words.
 */
import type { Lang } from '../../../contract/languages.ts';

export interface ChartMessages {
  range: string;
  rangeAll: string;
  rangeYears: (n: number) => string;
  rangeYearsLong: (n: number) => string;
  compare: string;
  comparePick: string;
  /** The client script replaces `{name}`. */
  remove: string;
  added: string;
  failed: string;
  loading: string;
  limit: string;
  download: string;
  downloadAs: (format: string) => string;
  embed: string;
  embedCode: string;
  copy: string;
  copied: string;
  /** How the keyboard reads a chart, said when it takes the focus. */
  keys: string;
  fullPage: string;
  sourceLine: (sources: string) => string;
  /** The licence line drawn in exports and embeds; English uses meta.attribution as published. */
  licence: (baseUrl: string) => string;
  noData: string;
  /** Where the stress index comes from (a Chokepoint computation, not a publisher's series). */
  stressSource: (version: string) => string;
}

const en: ChartMessages = {
  range: 'Time range',
  rangeAll: 'All',
  rangeYears: (n) => `${n} y`,
  rangeYearsLong: (n) => (n === 1 ? 'The last year' : `The last ${n} years`),
  compare: 'Compare with',
  comparePick: 'Add a country…',
  remove: 'Remove {name}',
  added: '{name} added to the chart',
  failed: 'No data for {name}',
  loading: 'Loading {name}…',
  limit: 'Up to 4 countries can be added',
  download: 'Download',
  downloadAs: (f) => `Download the chart as ${f}`,
  embed: 'Embed this chart',
  embedCode: 'HTML code to paste into your page',
  copy: 'Copy',
  copied: 'Embed code copied',
  keys: 'Interactive chart: the left and right arrow keys move from point to point, Home and End go to the ends.',
  fullPage: 'Full page on Chokepoint',
  sourceLine: (s) => `Source: ${s}`,
  licence: (b) =>
    `Chokepoint (${b}/), licensed CC-BY-4.0. Reuse requires attribution with a link back to ${b}/. Upstream sources keep their own terms (meta.sources).`,
  noData: 'No data to chart.',
  stressSource: (v) => `Chokepoint stress index (method version ${v}), computed from the publishers' data`,
};

const fr: ChartMessages = {
  range: 'Période',
  rangeAll: 'Tout',
  rangeYears: (n) => (n === 1 ? '1 an' : `${n} ans`),
  rangeYearsLong: (n) => (n === 1 ? 'La dernière année' : `Les ${n} dernières années`),
  compare: 'Comparer avec',
  comparePick: 'Ajouter un pays…',
  remove: 'Retirer {name}',
  added: 'Ajouté au graphique\u202f: {name}',
  failed: 'Pas de données pour {name}',
  loading: 'Chargement\u202f: {name}…',
  limit: 'On peut ajouter jusqu’à 4 pays',
  download: 'Télécharger',
  downloadAs: (f) => `Télécharger le graphique en ${f}`,
  embed: 'Intégrer ce graphique',
  embedCode: 'Code HTML à coller dans votre page',
  copy: 'Copier',
  copied: 'Code d’intégration copié',
  keys: 'Graphique interactif\u202f: les flèches gauche et droite passent d’un point à l’autre, Début et Fin mènent aux extrémités.',
  fullPage: 'Page complète sur Chokepoint',
  sourceLine: (s) => `Source\u202f: ${s}`,
  licence: (b) =>
    `Chokepoint (${b}/), sous licence CC-BY-4.0. Toute réutilisation doit citer la source avec un lien vers ${b}/. Les sources d’origine gardent leurs propres conditions (meta.sources).`,
  noData: 'Aucune donnée à représenter.',
  stressSource: (v) => `Indice de tension Chokepoint (méthode version ${v}), calculé à partir des données des éditeurs`,
};

const de: ChartMessages = {
  range: 'Zeitraum',
  rangeAll: 'Alle',
  rangeYears: (n) => `${n} J.`,
  rangeYearsLong: (n) => (n === 1 ? 'Das letzte Jahr' : `Die letzten ${n} Jahre`),
  compare: 'Vergleichen mit',
  comparePick: 'Land hinzufügen …',
  remove: '{name} entfernen',
  added: '{name} zum Diagramm hinzugefügt',
  failed: 'Keine Daten für {name}',
  loading: '{name} wird geladen …',
  limit: 'Bis zu 4 Länder lassen sich hinzufügen',
  download: 'Herunterladen',
  downloadAs: (f) => `Diagramm als ${f} herunterladen`,
  embed: 'Dieses Diagramm einbetten',
  embedCode: 'HTML-Code zum Einfügen in Ihre Seite',
  copy: 'Kopieren',
  copied: 'Einbettungscode kopiert',
  keys: 'Interaktives Diagramm: Die Pfeiltasten links und rechts springen von Punkt zu Punkt, Pos1 und Ende an die Enden.',
  fullPage: 'Vollständige Seite auf Chokepoint',
  sourceLine: (s) => `Quelle: ${s}`,
  licence: (b) =>
    `Chokepoint (${b}/), lizenziert unter CC-BY-4.0. Die Weiterverwendung erfordert eine Quellenangabe mit Link auf ${b}/. Für die Primärquellen gelten deren eigene Bedingungen (meta.sources).`,
  noData: 'Keine Daten darzustellen.',
  stressSource: (v) => `Chokepoint-Stressindex (Methode Version ${v}), berechnet aus den Daten der Herausgeber`,
};

const es: ChartMessages = {
  range: 'Periodo',
  rangeAll: 'Todo',
  rangeYears: (n) => (n === 1 ? '1 año' : `${n} años`),
  rangeYearsLong: (n) => (n === 1 ? 'El último año' : `Los últimos ${n} años`),
  compare: 'Comparar con',
  comparePick: 'Añadir un país…',
  remove: 'Quitar {name}',
  added: '{name}: añadido al gráfico',
  failed: 'No hay datos de {name}',
  loading: 'Cargando {name}…',
  limit: 'Se pueden añadir hasta 4 países',
  download: 'Descargar',
  downloadAs: (f) => `Descargar el gráfico en ${f}`,
  embed: 'Insertar este gráfico',
  embedCode: 'Código HTML para pegar en su página',
  copy: 'Copiar',
  copied: 'Código para insertar copiado',
  keys: 'Gráfico interactivo: las flechas izquierda y derecha pasan de un punto a otro; Inicio y Fin llevan a los extremos.',
  fullPage: 'Página completa en Chokepoint',
  sourceLine: (s) => `Fuente: ${s}`,
  licence: (b) =>
    `Chokepoint (${b}/), con licencia CC-BY-4.0. Toda reutilización debe citar la fuente con un enlace a ${b}/. Las fuentes originales mantienen sus propias condiciones (meta.sources).`,
  noData: 'No hay datos que representar.',
  stressSource: (v) => `Índice de tensión de Chokepoint (método versión ${v}), calculado a partir de los datos de los editores`,
};

export const CHART_MESSAGES: Readonly<Record<Lang, ChartMessages>> = { en, fr, de, es };
export const chartMessages = (lang: Lang): ChartMessages => CHART_MESSAGES[lang];
