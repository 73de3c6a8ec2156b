import type { ComponentKey } from '../../contract/stress.ts';
import type { MeasureId } from './measures.ts';
import type { Lang } from './text.ts';

/** The sentences of the planner's answers (comparisons, rankings, filters, changes, explanations), per language. Figures arrive formatted. */
export interface PlanPhrases {
  measure: Record<MeasureId, string>;
  /** "EU countries with data", "commodities", … : the set a ranking ran over, with its size. */
  set: { countries2: (n: string) => string; countries3: (n: string) => string; commodities: (n: string) => string };
  list: (items: string[]) => string;
  /** "Portugal 91.26%" */
  item: (name: string, value: string) => string;
  itemDated: (name: string, value: string, date: string) => string;
  compareCommon: (measure: string, date: string, items: string, top: string, diff: string) => string;
  compareLevel: (measure: string, date: string, items: string) => string;
  /** Readings on different dates and no common date in the series: compared as they are, said so. */
  compareApart: (measure: string, items: string, top: string) => string;
  newer: (items: string) => string;
  units: (items: string) => string;
  rank: (measure: string, order: 'max' | 'min', set: string, date: string | null, items: string) => string;
  commonDate: string;
  /** Said after a date the question named (rankings, filters): "the date asked". */
  askedDate: string;
  /** A comparison on the date the question named. */
  compareOn: (measure: string, date: string, items: string, top: string, diff: string) => string;
  /** A series without a reading on the date asked: the nearest earlier reading was taken. */
  earlier: (asked: string) => string;
  /** An explanation of a move: the events recorded on the commodity in the period (or no event). */
  whyEvents: (name: string, from: string, to: string, items: string) => string;
  whyNoEvent: (name: string, from: string, to: string) => string;
  effect: { tightening: string; easing: string };
  /** The members of a set in one stress band. */
  bandList: (measure: string, band: string, set: string, count: string, items: string) => string;
  bandNone: (measure: string, band: string, set: string) => string;
  /** A ranking on a date when only one member of the set has a reading then. */
  onlyOn: (set: string, date: string, items: string) => string;
  tied: (count: string, value: string) => string;
  missingOn: (names: string, date: string) => string;
  threshold: (measure: string, op: '<' | '>', bound: string, set: string, date: string | null, count: string, items: string) => string;
  thresholdNone: (measure: string, op: '<' | '>', bound: string, set: string, date: string | null, nearest: string) => string;
  change: (
    name: string,
    measure: string,
    to: string,
    toDate: string,
    dir: 'up' | 'down' | 'flat',
    diff: string,
    rel: string | null,
    from: string,
    fromDate: string,
  ) => string;
  seriesEnds: (date: string, days: string) => string;
  seriesStarts: (date: string) => string;
  points: string;
  pp: string;
  explainHead: (name: string, index: string, band: string, date: string) => string;
  explainPart: (points: string, label: string, detail: string) => string;
  explainNone: (label: string, detail: string) => string;
  explainOff: (label: string, reason: string) => string;
  explainCountryHead: (name: string, index: string, band: string) => string;
  explainFuel: (fuel: string, points: string, share: string, dep: string, stress: string) => string;
  component: Record<ComponentKey, string>;
  detail: {
    concentration: (supplier: string, share: string, basis: string, year: string, hhi: string) => string;
    price12: (pct: string) => string;
    reserves: (fill: string, norm: string) => string;
    events: (n: string) => string;
  };
}

const pp: Record<Lang, string> = { en: 'percentage points', fr: 'points de pourcentage', de: 'Prozentpunkte', es: 'puntos porcentuales' };

export const PLAN_PHRASES: Record<Lang, PlanPhrases> = {
  en: {
    measure: {
      gas_fill: 'Gas storage',
      spr: 'US Strategic Petroleum Reserve',
      price: 'Price',
      stress: 'Stress index',
      country_stress: 'Supply stress index',
      producer_share: 'Share of world production',
      import_dependence: 'Import dependence',
      autonomy: 'Self-sufficiency',
      hhi: 'Supplier concentration (HHI)',
    },
    set: {
      countries2: (n) => `the ${n} EU countries with data`,
      countries3: (n) => `the ${n} countries with data`,
      commodities: (n) => `the ${n} commodities with a reading`,
    },
    list: (xs) => (xs.length < 2 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`),
    item: (n, v) => `${n} ${v}`,
    itemDated: (n, v, d) => `${n} ${v} (${d})`,
    compareCommon: (m, d, items, top, diff) => `${m} on ${d}, the latest date all of these series report: ${items}. ${top} is higher, by ${diff}.`,
    compareLevel: (m, d, items) => `${m} on ${d}: ${items}. The two are level.`,
    compareApart: (m, items, top) => `${m}, newest readings (on different dates, so the comparison is only indicative): ${items}. ${top} is higher.`,
    newer: (items) => ` Newer readings: ${items}.`,
    units: (items) => `The figures are in different units and cannot be compared directly: ${items}.`,
    rank: (m, o, set, d, items) => `${o === 'max' ? 'Highest' : 'Lowest'} ${m.toLowerCase()} among ${set}${d ? ` on ${d}` : ''}: ${items}.`,
    commonDate: 'the latest date they all report',
    onlyOn: (set, d, items) => `Of ${set}, only one has a reading on ${d}: ${items}.`,
    bandList: (m, band, set, n, items) => `${n} of ${set} are in the “${band}” band of the ${m.toLowerCase()}: ${items}.`,
    bandNone: (m, band, set) => `None of ${set} is in the “${band}” band of the ${m.toLowerCase()}.`,
    whyEvents: (n, f, t, items) => `Events recorded on ${n} from ${f} to ${t}: ${items}.`,
    whyNoEvent: (n, f, t) => `No event or disruption is recorded for ${n} from ${f} to ${t}; the data hold no recorded cause for this move.`,
    effect: { tightening: 'tightening supply', easing: 'easing supply' },
    askedDate: 'the date asked',
    compareOn: (m, d, items, top, diff) => `${m} on ${d}: ${items}. ${top} is higher, by ${diff}.`,
    earlier: (d) => ` There is no reading on ${d}: the nearest earlier one is given.`,
    tied: (n, v) => ` ${n} are at ${v}.`,
    missingOn: (names, d) => ` Not included, no reading on ${d}: ${names}.`,
    threshold: (m, op, bound, set, d, count, items) =>
      `${d ? `On ${d}, ` : ''}${count} of ${set} had ${m.toLowerCase()} ${op === '<' ? 'below' : 'above'} ${bound}: ${items}.`,
    thresholdNone: (m, op, bound, set, d, near) =>
      `${d ? `On ${d}, ` : ''}none of ${set} had ${m.toLowerCase()} ${op === '<' ? 'below' : 'above'} ${bound}; the nearest was ${near}.`,
    change: (n, m, to, td, dir, diff, rel, from, fd) =>
      `${n}${m ? ` (${m.toLowerCase()})` : ''}: ${to} on ${td}, ${dir === 'flat' ? 'unchanged' : `${dir} ${diff}${rel ? ` (${rel})` : ''}`} from ${from} on ${fd}.`,
    seriesEnds: (d, days) => ` The series ends on ${d}, ${days} days before today, so this is the latest period in the data.`,
    seriesStarts: (d) => ` The series starts on ${d}.`,
    points: 'points',
    pp: pp.en,
    explainHead: (n, i, b, d) => `The stress index of ${n} is ${i} out of 100 (${b}), as of ${d}.`,
    explainPart: (p, l, det) => ` ${p} points come from ${l}${det ? ` (${det})` : ''}.`,
    explainNone: (l, det) => ` ${l} adds nothing${det ? ` (${det})` : ''}.`,
    explainOff: (l, r) => ` ${l} is not counted${r ? `: ${r}` : ' (no current input)'}.`,
    explainCountryHead: (n, i, b) =>
      `The supply stress index of ${n} is ${i} out of 100 (${b}); it adds up each imported fuel's share of energy × import dependence × the fuel's stress:`,
    explainFuel: (f, p, s, dep, st) => ` ${f} ${p} points (${s} of primary energy, ${dep} imported, stress ${st})`,
    component: {
      price: 'the price shock',
      concentration: 'supplier concentration',
      reserves: 'reserves below their norm',
      events: 'recent events',
      disruption: 'supply routes cut at chokepoints',
    },
    detail: {
      concentration: (sup, s, basis, y, h) => `${sup} ${s} of ${basis} in ${y}, HHI ${h}`,
      price12: (p) => `12-month price change ${p}, within its usual range`,
      reserves: (f, n) => `storage ${f} against a seasonal norm of ${n}`,
      events: (n) => `${n} tagged events counted`,
    },
  },
  fr: {
    measure: {
      gas_fill: 'Stockage de gaz',
      spr: 'Réserve stratégique de pétrole des États-Unis',
      price: 'Prix',
      stress: 'Indice de tension',
      country_stress: 'Indice de tension d’approvisionnement',
      producer_share: 'Part de la production mondiale',
      import_dependence: 'Dépendance aux importations',
      autonomy: 'Autosuffisance',
      hhi: 'Concentration des fournisseurs (HHI)',
    },
    set: {
      countries2: (n) => `les ${n} pays de l’UE présents dans les données`,
      countries3: (n) => `les ${n} pays présents dans les données`,
      commodities: (n) => `les ${n} matières dotées d’une mesure`,
    },
    list: (xs) => (xs.length < 2 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} et ${xs.at(-1)}`),
    item: (n, v) => `${n} ${v}`,
    itemDated: (n, v, d) => `${n} ${v} (${d})`,
    compareCommon: (m, d, items, top, diff) =>
      `${m} au ${d}, dernière date commune à ces séries : ${items}. La valeur la plus haute : ${top}, avec un écart de ${diff}.`,
    compareLevel: (m, d, items) => `${m} au ${d} : ${items}. Les deux valeurs sont égales.`,
    compareApart: (m, items, top) =>
      `${m}, dernières valeurs (à des dates différentes, la comparaison n’est donc qu’indicative) : ${items}. La valeur la plus haute : ${top}.`,
    newer: (items) => ` Valeurs plus récentes : ${items}.`,
    units: (items) => `Les chiffres sont dans des unités différentes et ne se comparent pas directement : ${items}.`,
    rank: (m, o, set, d, items) => `${m} ${o === 'max' ? 'le plus élevé' : 'le plus bas'} parmi ${set}${d ? ` au ${d}` : ''} : ${items}.`,
    commonDate: 'dernière date commune à tous',
    onlyOn: (set, d, items) => `Parmi ${set}, un seul a une valeur au ${d} : ${items}.`,
    bandList: (m, band, set, n, items) => `${n} parmi ${set} sont dans la classe « ${band} » (${m.toLowerCase()}) : ${items}.`,
    bandNone: (m, band, set) => `Aucun parmi ${set} n’est dans la classe « ${band} » (${m.toLowerCase()}).`,
    whyEvents: (n, f, t, items) => `Événements enregistrés pour ${n} du ${f} au ${t} : ${items}.`,
    whyNoEvent: (n, f, t) =>
      `Aucun événement ni perturbation n’est enregistré pour ${n} du ${f} au ${t} ; les données ne contiennent pas de cause enregistrée de ce mouvement.`,
    effect: { tightening: 'resserre l’offre', easing: 'détend l’offre' },
    askedDate: 'date demandée',
    compareOn: (m, d, items, top, diff) => `${m} au ${d} : ${items}. La valeur la plus haute : ${top}, avec un écart de ${diff}.`,
    earlier: (d) => ` Aucune valeur au ${d} : la plus proche avant cette date est donnée.`,
    tied: (n, v) => ` ${n} sont à ${v}.`,
    missingOn: (names, d) => ` Non inclus, faute de valeur au ${d} : ${names}.`,
    threshold: (m, op, bound, set, d, count, items) =>
      `${d ? `Au ${d}, ` : ''}${count} parmi ${set} : ${m.toLowerCase()} ${op === '<' ? 'inférieur à' : 'supérieur à'} ${bound} (${items}).`,
    thresholdNone: (m, op, bound, set, d, near) =>
      `${d ? `Au ${d}, ` : ''}aucun parmi ${set} : ${m.toLowerCase()} ${op === '<' ? 'inférieur à' : 'supérieur à'} ${bound} ; le plus proche : ${near}.`,
    change: (n, m, to, td, dir, diff, rel, from, fd) =>
      `${n}${m ? ` (${m.toLowerCase()})` : ''} : ${to} le ${td}, ${dir === 'flat' ? 'inchangé' : `${dir === 'up' ? 'en hausse' : 'en baisse'} de ${diff}${rel ? ` (${rel})` : ''}`} par rapport à ${from} le ${fd}.`,
    seriesEnds: (d, days) => ` La série s’arrête le ${d}, ${days} jours avant aujourd’hui : c’est la période la plus récente des données.`,
    seriesStarts: (d) => ` La série commence le ${d}.`,
    points: 'points',
    pp: pp.fr,
    explainHead: (n, i, b, d) => `L’indice de tension de ${n} est de ${i} sur 100 (${b}), au ${d}.`,
    explainPart: (p, l, det) => ` ${p} points viennent de ${l}${det ? ` (${det})` : ''}.`,
    explainNone: (l, det) => ` ${l} n’ajoute rien${det ? ` (${det})` : ''}.`,
    explainOff: (l) => ` ${l} : hors calcul, faute de donnée à jour.`,
    explainCountryHead: (n, i, b) =>
      `L’indice de tension d’approvisionnement de ${n} est de ${i} sur 100 (${b}) ; il additionne, pour chaque énergie importée, part dans l’énergie × dépendance aux importations × tension :`,
    explainFuel: (f, p, s, dep, st) => ` ${f} ${p} points (${s} de l’énergie primaire, ${dep} importé, tension ${st})`,
    component: {
      price: 'le choc de prix',
      concentration: 'la concentration des fournisseurs',
      reserves: 'des réserves sous leur norme',
      events: 'les événements récents',
      disruption: 'les routes d’approvisionnement coupées aux détroits',
    },
    detail: {
      concentration: (sup, s, basis, y, h) => `${sup} ${s} de la production en ${y}, HHI ${h}`,
      price12: (p) => `variation du prix sur 12 mois ${p}, dans sa fourchette habituelle`,
      reserves: (f, n) => `stockage à ${f} pour une norme saisonnière de ${n}`,
      events: (n) => `${n} événements répertoriés pris en compte`,
    },
  },
  de: {
    measure: {
      gas_fill: 'Gasspeicher',
      spr: 'Strategische Erdölreserve der USA',
      price: 'Preis',
      stress: 'Stressindex',
      country_stress: 'Versorgungsstressindex',
      producer_share: 'Anteil an der Weltproduktion',
      import_dependence: 'Importabhängigkeit',
      autonomy: 'Selbstversorgung',
      hhi: 'Lieferantenkonzentration (HHI)',
    },
    set: {
      countries2: (n) => `den ${n} EU-Ländern mit Daten`,
      countries3: (n) => `den ${n} Ländern mit Daten`,
      commodities: (n) => `den ${n} Rohstoffen mit Messwert`,
    },
    list: (xs) => (xs.length < 2 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} und ${xs.at(-1)}`),
    item: (n, v) => `${n} ${v}`,
    itemDated: (n, v, d) => `${n} ${v} (${d})`,
    compareCommon: (m, d, items, top, diff) => `${m} am ${d}, dem letzten gemeinsamen Datum dieser Reihen: ${items}. Höher liegt ${top}, um ${diff}.`,
    compareLevel: (m, d, items) => `${m} am ${d}: ${items}. Beide Werte sind gleich.`,
    compareApart: (m, items, top) =>
      `${m}, neueste Werte (von verschiedenen Tagen, der Vergleich ist daher nur ein Anhaltspunkt): ${items}. Höher liegt ${top}.`,
    newer: (items) => ` Neuere Werte: ${items}.`,
    units: (items) => `Die Werte haben verschiedene Einheiten und lassen sich nicht direkt vergleichen: ${items}.`,
    rank: (m, o, set, d, items) => `${o === 'max' ? 'Höchster' : 'Niedrigster'} Wert (${m}) unter ${set}${d ? ` am ${d}` : ''}: ${items}.`,
    commonDate: 'dem letzten Datum, für das alle Werte vorliegen',
    onlyOn: (set, d, items) => `Von ${set} hat am ${d} nur eines einen Wert: ${items}.`,
    bandList: (m, band, set, n, items) => `${n} von ${set} liegen in der Stufe „${band}“ (${m}): ${items}.`,
    bandNone: (m, band, set) => `Keiner von ${set} liegt in der Stufe „${band}“ (${m}).`,
    whyEvents: (n, f, t, items) => `Erfasste Ereignisse zu ${n} vom ${f} bis ${t}: ${items}.`,
    whyNoEvent: (n, f, t) =>
      `Für ${n} ist vom ${f} bis ${t} kein Ereignis und keine Störung erfasst; die Daten enthalten keine erfasste Ursache dieser Bewegung.`,
    effect: { tightening: 'verknappt das Angebot', easing: 'entspannt das Angebot' },
    askedDate: 'dem erfragten Datum',
    compareOn: (m, d, items, top, diff) => `${m} am ${d}: ${items}. Höher ist ${top}, um ${diff}.`,
    earlier: (d) => ` Für den ${d} liegt kein Wert vor: angegeben ist der letzte davor.`,
    tied: (n, v) => ` ${n} liegen bei ${v}.`,
    missingOn: (names, d) => ` Nicht enthalten, ohne Wert am ${d}: ${names}.`,
    threshold: (m, op, bound, set, d, count, items) =>
      `${d ? `Am ${d} ` : ''}lag der Wert (${m}) bei ${count} von ${set} ${op === '<' ? 'unter' : 'über'} ${bound}: ${items}.`,
    thresholdNone: (m, op, bound, set, d, near) =>
      `${d ? `Am ${d} ` : ''}lag der Wert (${m}) bei keinem von ${set} ${op === '<' ? 'unter' : 'über'} ${bound}; am nächsten: ${near}.`,
    change: (n, m, to, td, dir, diff, rel, from, fd) =>
      `${n}${m ? ` (${m})` : ''}: ${to} am ${td}, ${dir === 'flat' ? 'unverändert' : `${dir === 'up' ? 'ein Anstieg' : 'ein Rückgang'} um ${diff}${rel ? ` (${rel})` : ''}`} gegenüber ${from} am ${fd}.`,
    seriesEnds: (d, days) => ` Die Reihe endet am ${d}, ${days} Tage vor heute; das ist der neueste Zeitraum in den Daten.`,
    seriesStarts: (d) => ` Die Reihe beginnt am ${d}.`,
    points: 'Punkte',
    pp: pp.de,
    explainHead: (n, i, b, d) => `Der Stressindex von ${n} liegt bei ${i} von 100 (${b}), Stand ${d}.`,
    explainPart: (p, l, det) => ` ${p} Punkte entfallen auf: ${l}${det ? ` (${det})` : ''}.`,
    explainNone: (l, det) => ` ${l}: kein Beitrag${det ? ` (${det})` : ''}.`,
    explainOff: (l) => ` ${l}: nicht gezählt, da kein aktueller Wert vorliegt.`,
    explainCountryHead: (n, i, b) =>
      `Der Versorgungsstressindex von ${n} liegt bei ${i} von 100 (${b}); er summiert für jeden importierten Energieträger Energieanteil × Importabhängigkeit × Stress:`,
    explainFuel: (f, p, s, dep, st) => ` ${f} ${p} Punkte (${s} der Primärenergie, ${dep} importiert, Stress ${st})`,
    component: {
      price: 'Preisschock',
      concentration: 'Lieferantenkonzentration',
      reserves: 'Reserven unter ihrer Norm',
      events: 'jüngste Ereignisse',
      disruption: 'an Meerengen unterbrochene Lieferwege',
    },
    detail: {
      concentration: (sup, s, basis, y, h) => `${sup} ${s} der Produktion ${y}, HHI ${h}`,
      price12: (p) => `Preisänderung über 12 Monate ${p}, im üblichen Bereich`,
      reserves: (f, n) => `Speicher bei ${f} gegenüber einer saisonalen Norm von ${n}`,
      events: (n) => `${n} erfasste Ereignisse berücksichtigt`,
    },
  },
  es: {
    measure: {
      gas_fill: 'Almacenamiento de gas',
      spr: 'Reserva Estratégica de Petróleo de EE. UU.',
      price: 'Precio',
      stress: 'Índice de estrés',
      country_stress: 'Índice de estrés de suministro',
      producer_share: 'Cuota de la producción mundial',
      import_dependence: 'Dependencia de las importaciones',
      autonomy: 'Autosuficiencia',
      hhi: 'Concentración de proveedores (HHI)',
    },
    set: {
      countries2: (n) => `los ${n} países de la UE con datos`,
      countries3: (n) => `los ${n} países con datos`,
      commodities: (n) => `las ${n} materias primas con lectura`,
    },
    list: (xs) => (xs.length < 2 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} y ${xs.at(-1)}`),
    item: (n, v) => `${n} ${v}`,
    itemDated: (n, v, d) => `${n} ${v} (${d})`,
    compareCommon: (m, d, items, top, diff) => `${m} el ${d}, última fecha común de estas series: ${items}. El valor más alto es el de ${top}, por ${diff}.`,
    compareLevel: (m, d, items) => `${m} el ${d}: ${items}. Ambos valores son iguales.`,
    compareApart: (m, items, top) =>
      `${m}, lecturas más recientes (de fechas distintas, así que la comparación es solo orientativa): ${items}. El valor más alto es el de ${top}.`,
    newer: (items) => ` Lecturas más recientes: ${items}.`,
    units: (items) => `Las cifras están en unidades distintas y no se pueden comparar directamente: ${items}.`,
    rank: (m, o, set, d, items) => `${m}, ${o === 'max' ? 'los valores más altos' : 'los valores más bajos'} entre ${set}${d ? ` el ${d}` : ''}: ${items}.`,
    commonDate: 'la última fecha en que todos informan',
    onlyOn: (set, d, items) => `De ${set}, solo uno tiene lectura el ${d}: ${items}.`,
    bandList: (m, band, set, n, items) => `${n} de ${set} están en la banda «${band}» (${m.toLowerCase()}): ${items}.`,
    bandNone: (m, band, set) => `Ninguno de ${set} está en la banda «${band}» (${m.toLowerCase()}).`,
    whyEvents: (n, f, t, items) => `Eventos registrados sobre ${n} del ${f} al ${t}: ${items}.`,
    whyNoEvent: (n, f, t) =>
      `No hay ningún evento ni perturbación registrado para ${n} del ${f} al ${t}; los datos no recogen una causa registrada de este movimiento.`,
    effect: { tightening: 'restringe la oferta', easing: 'alivia la oferta' },
    askedDate: 'la fecha pedida',
    compareOn: (m, d, items, top, diff) => `${m} el ${d}: ${items}. El valor más alto es ${top}, por ${diff}.`,
    earlier: (d) => ` No hay lectura el ${d}: se da la más cercana anterior.`,
    tied: (n, v) => ` ${n} están en ${v}.`,
    missingOn: (names, d) => ` No incluidos, sin lectura el ${d}: ${names}.`,
    threshold: (m, op, bound, set, d, count, items) =>
      `${d ? `El ${d}, ` : ''}${count} de ${set} tenían ${m.toLowerCase()} ${op === '<' ? 'por debajo del' : 'por encima del'} ${bound}: ${items}.`,
    thresholdNone: (m, op, bound, set, d, near) =>
      `${d ? `El ${d}, ` : ''}ninguno de ${set} tenía ${m.toLowerCase()} ${op === '<' ? 'por debajo del' : 'por encima del'} ${bound}; el más cercano: ${near}.`,
    change: (n, m, to, td, dir, diff, rel, from, fd) =>
      `${n}${m ? ` (${m.toLowerCase()})` : ''}: ${to} el ${td}, ${dir === 'flat' ? 'sin cambios' : `${dir === 'up' ? 'una subida' : 'una bajada'} de ${diff}${rel ? ` (${rel})` : ''}`} frente a ${from} el ${fd}.`,
    seriesEnds: (d, days) => ` La serie termina el ${d}, ${days} días antes de hoy: es el periodo más reciente de los datos.`,
    seriesStarts: (d) => ` La serie empieza el ${d}.`,
    points: 'puntos',
    pp: pp.es,
    explainHead: (n, i, b, d) => `El índice de estrés de ${n} es de ${i} sobre 100 (${b}), a ${d}.`,
    explainPart: (p, l, det) => ` ${p} puntos proceden de ${l}${det ? ` (${det})` : ''}.`,
    explainNone: (l, det) => ` ${l} no suma nada${det ? ` (${det})` : ''}.`,
    explainOff: (l) => ` ${l}: no se cuenta, por falta de un dato actual.`,
    explainCountryHead: (n, i, b) =>
      `El índice de estrés de suministro de ${n} es de ${i} sobre 100 (${b}); suma, para cada energía importada, cuota de energía × dependencia de las importaciones × estrés:`,
    explainFuel: (f, p, s, dep, st) => ` ${f} ${p} puntos (${s} de la energía primaria, ${dep} importado, estrés ${st})`,
    component: {
      price: 'el shock de precios',
      concentration: 'la concentración de proveedores',
      reserves: 'reservas por debajo de su norma',
      events: 'los acontecimientos recientes',
      disruption: 'las rutas de suministro cortadas en los estrechos',
    },
    detail: {
      concentration: (sup, s, basis, y, h) => `${sup} ${s} de la producción en ${y}, HHI ${h}`,
      price12: (p) => `variación del precio en 12 meses ${p}, dentro de su rango habitual`,
      reserves: (f, n) => `almacenamiento al ${f} frente a una norma estacional del ${n}`,
      events: (n) => `${n} acontecimientos registrados contados`,
    },
  },
};
