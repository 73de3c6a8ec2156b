import type { Lang } from './text.ts';

/** The sentences of a grounded answer, per language. Figures arrive already formatted. */
export interface Phrases {
  cannot: (reason: string) => string;
  reasons: {
    nothing: string;
    outOfScope: string;
    /** A request to reveal the answerer's instructions or to change its role. */
    instructions: string;
    /** A commodity or topic named that the data do not cover. */
    notCovered: (name: string) => string;
    forecast: string;
    noReserve: (commodity: string, place: string) => string;
    beforeSeries: (what: string, first: string) => string;
    noPrice: (name: string) => string;
    needCountry: string;
    noProducers: (name: string) => string;
    noCountryData: (place: string, what: string) => string;
    noScenario: string;
    noEvent: string;
    /** Nothing in the period asked: the newest matching events outside it follow. */
    noEventIn: (from: string, to: string) => string;
  };
  what: { storage: string; price: string; autonomy: string; imports: string; production: string; stress: string; concentration: string; reserves: string };
  eu: string;
  gas: string;
  storage: (place: string, pct: string, date: string) => string;
  storageVolume: (vol: string, cap: string | null) => string;
  cover: (days: string) => string;
  target: (pct: string, date: string) => string;
  /** A target date already past on the day of the question (the data end before it). */
  targetPassed: (pct: string, date: string) => string;
  spr: (vol: string, unit: string, date: string) => string;
  sprCover: (days: string) => string;
  price: (name: string, price: string, when: string, benchmark: string) => string;
  stress: (name: string, index: string, band: string) => string;
  countryStress: (name: string, index: string, band: string) => string;
  topProducer: (name: string, country: string, share: string, year: string, basis: string) => string;
  followedBy: (list: string) => string;
  countryShare: (country: string, name: string, share: string, rank: string, year: string) => string;
  topReserves: (name: string, country: string, share: string, year: string) => string;
  autonomy: (country: string, name: string, pct: string, year: string) => string;
  imports: (country: string, name: string, pct: string, year: string) => string;
  /** A mineral's net import reliance (USGS) and its largest import source. */
  mineralImports: (country: string, name: string, pct: string, year: string, supplier: string | null, share: string | null) => string;
  hhi: (name: string, hhi: string, band: string, year: string) => string;
  scenarios: (count: string) => string;
  scenario: (title: string, status: string, probability: string, severity: string) => string;
  events: string;
  event: (date: string, title: string, category: string) => string;
  related: (title: string) => string;
  searchOnly: (title: string, snippet: string) => string;
  status: Record<string, string>;
  band: Record<string, string>;
  hhiBand: Record<string, string>;
  category: Record<string, string>;
}

export const PHRASES: Record<Lang, Phrases> = {
  en: {
    cannot: (r) => `The published data cannot answer this question: ${r}.`,
    reasons: {
      nothing: 'it names no commodity, country or indicator that Chokepoint tracks',
      outOfScope: 'Chokepoint publishes supply data on raw materials and energy, not this topic',
      instructions: 'it asks for the answerer’s instructions or a change of its role, which it does not give; ask about supply data instead',
      notCovered: (n) => `Chokepoint does not cover “${n}”`,
      forecast: 'Chokepoint publishes observations, not forecasts',
      noReserve: (c, p) => `there is no ${c} reserve series for ${p}`,
      beforeSeries: (w, f) => `the ${w} series starts on ${f}`,
      noPrice: (n) => `there is no public price series for ${n}`,
      needCountry: 'name a country to get its self-sufficiency or import dependence',
      noProducers: (n) => `there are no production figures for ${n}`,
      noCountryData: (p, w) => `there is no ${w} figure for ${p}`,
      noScenario: 'no scenario matches',
      noEvent: 'no tagged event matches',
      noEventIn: (f, t) => `No tagged event matches between ${f} and ${t}. `,
    },
    what: {
      storage: 'storage',
      price: 'price',
      autonomy: 'self-sufficiency',
      imports: 'import dependence',
      production: 'production',
      stress: 'stress index',
      concentration: 'supplier concentration',
      reserves: 'reserves',
    },
    eu: 'the EU',
    gas: 'gas',
    storage: (p, pct, d) => `Gas storage in ${p} was ${pct} full on ${d}`,
    storageVolume: (v, c) => ` (${v}${c ? ` of ${c} capacity` : ''})`,
    cover: (d) => ` That is about ${d} days of consumption.`,
    target: (pct, d) => ` The target is ${pct} by ${d}.`,
    targetPassed: (pct, d) => ` The deadline to reach ${pct} (${d}) has passed; the reading above is the newest in the data.`,
    spr: (v, u, d) => `The US Strategic Petroleum Reserve held ${v} ${u} of crude oil on ${d}`,
    sprCover: (d) => `, about ${d} days of net crude imports`,
    price: (n, p, w, b) => `${n}: ${p} ${w} (${b}).`,
    stress: (n, i, b) => `The stress index of ${n} is ${i} out of 100 (${b}).`,
    countryStress: (n, i, b) => `The supply stress index of ${n} is ${i} out of 100 (${b}).`,
    topProducer: (n, c, s, y, basis) => `The largest producer of ${n} is ${c}, with ${s} of world ${basis} in ${y}`,
    followedBy: (l) => `, followed by ${l}`,
    countryShare: (c, n, s, r, y) => `${c} accounts for ${s} of world ${n} production in ${y} (rank ${r}).`,
    topReserves: (n, c, s, y) => `${c} holds the largest ${n} reserves: ${s} of the world total (${y}).`,
    autonomy: (c, n, p, y) => `Self-sufficiency of ${c} in ${n}: ${p} (domestic production / consumption, ${y}).`,
    imports: (c, n, p, y) => `Import dependence of ${c} for ${n}: ${p} of consumption (${y}).`,
    mineralImports: (c, n, p, y, s, sh) =>
      `Net import reliance of ${c} for ${n}: ${p} of apparent consumption (USGS, ${y})${s ? `; largest import source ${s}, ${sh} of imports` : ''}.`,
    hhi: (n, h, b, y) => `Supplier concentration of ${n}: HHI ${h} (${b}, ${y}).`,
    scenarios: (n) => `${n} scenario(s) match: `,
    scenario: (t, s, p, sev) => `${t} (${s}, probability ${p}, severity ${sev}/5)`,
    events: 'Latest tagged events: ',
    event: (d, t, c) => `${d}: ${t} (${c})`,
    related: (t) => ` Related: “${t}”.`,
    searchOnly: (t, s) => `No figure in the data answers this directly; the closest published document is “${t}”: ${s}`,
    status: { active: 'active', elevated: 'elevated', monitoring: 'monitoring', resolved: 'resolved', dismissed: 'dismissed' },
    band: { low: 'low', moderate: 'moderate', high: 'high', severe: 'severe' },
    hhiBand: { unconcentrated: 'unconcentrated', 'moderately concentrated': 'moderately concentrated', 'highly concentrated': 'highly concentrated' },
    category: { conflict: 'conflict', sanction: 'sanction', catastrophe: 'catastrophe', policy: 'policy', infrastructure: 'infrastructure' },
  },
  fr: {
    cannot: (r) => `Les données publiées ne permettent pas de répondre à cette question : ${r}.`,
    reasons: {
      nothing: 'elle ne nomme aucune matière, aucun pays ni aucun indicateur suivi par Chokepoint',
      outOfScope: 'Chokepoint publie des données d’approvisionnement en matières premières et en énergie, pas sur ce sujet',
      instructions:
        'elle demande les instructions du service ou un changement de rôle, qu’il ne donne pas ; posez plutôt une question sur les données d’approvisionnement',
      notCovered: (n) => `Chokepoint ne couvre pas « ${n} »`,
      forecast: 'Chokepoint publie des observations, pas des prévisions',
      noReserve: (c, p) => `il n’existe pas de série de réserves de ${c} pour ${p}`,
      beforeSeries: (w, f) => `la série (${w}) commence le ${f}`,
      noPrice: (n) => `il n’existe pas de série de prix publique pour ${n}`,
      needCountry: 'nommez un pays pour obtenir son autosuffisance ou sa dépendance aux importations',
      noProducers: (n) => `il n’existe pas de chiffres de production pour ${n}`,
      noCountryData: (p, w) => `il n’existe pas de chiffre (${w}) pour ${p}`,
      noScenario: 'aucun scénario ne correspond',
      noEvent: 'aucun événement répertorié ne correspond',
      noEventIn: (f, t) => `Aucun événement répertorié ne correspond entre le ${f} et le ${t}. `,
    },
    what: {
      storage: 'stockage',
      price: 'prix',
      autonomy: 'autosuffisance',
      imports: 'dépendance aux importations',
      production: 'production',
      stress: 'indice de tension',
      concentration: 'concentration des fournisseurs',
      reserves: 'réserves',
    },
    eu: 'l’UE',
    gas: 'gaz',
    storage: (p, pct, d) => `Stockage de gaz (${p}) : rempli à ${pct} le ${d}`,
    storageVolume: (v, c) => ` (${v}${c ? ` pour une capacité de ${c}` : ''})`,
    cover: (d) => ` Cela représente environ ${d} jours de consommation.`,
    target: (pct, d) => ` L’objectif est de ${pct} au ${d}.`,
    targetPassed: (pct, d) => ` L’échéance pour atteindre ${pct} (${d}) est passée ; la valeur ci-dessus est la plus récente des données.`,
    spr: (v, u, d) => `La réserve stratégique de pétrole des États-Unis contenait ${v} ${u} de brut le ${d}`,
    sprCover: (d) => `, soit environ ${d} jours d’importations nettes de brut`,
    price: (n, p, w, b) => `${n} : ${p} ${w} (série de la source : « ${b} »).`,
    stress: (n, i, b) => `L’indice de tension de ${n} est de ${i} sur 100 (${b}).`,
    countryStress: (n, i, b) => `L’indice de tension d’approvisionnement de ${n} est de ${i} sur 100 (${b}).`,
    topProducer: (n, c, s, y) => `Le premier producteur de ${n} est ${c}, avec ${s} de la production mondiale en ${y}`,
    followedBy: (l) => `, devant ${l}`,
    countryShare: (c, n, s, r, y) => `${c} représente ${s} de la production mondiale de ${n} en ${y} (rang ${r}).`,
    topReserves: (n, c, s, y) => `${c} détient les plus grandes réserves de ${n} : ${s} du total mondial (${y}).`,
    autonomy: (c, n, p, y) => `Autosuffisance de ${c} en ${n} : ${p} (production intérieure / consommation, ${y}).`,
    imports: (c, n, p, y) => `Dépendance de ${c} aux importations de ${n} : ${p} de la consommation (${y}).`,
    mineralImports: (c, n, p, y, s, sh) =>
      `Dépendance nette de ${c} aux importations de ${n} : ${p} de la consommation apparente (USGS, ${y})${s ? ` ; premier fournisseur ${s}, ${sh} des importations` : ''}.`,
    hhi: (n, h, b, y) => `Concentration des fournisseurs de ${n} : HHI ${h} (${b}, ${y}).`,
    scenarios: (n) => `${n} scénario(s) correspondent : `,
    scenario: (t, s, p, sev) => `${t} (${s}, probabilité ${p}, gravité ${sev}/5)`,
    events: 'Derniers événements répertoriés : ',
    event: (d, t, c) => `${d} : « ${t} » (${c})`,
    related: (t) => ` À lire : « ${t} ».`,
    searchOnly: (t, s) => `Aucun chiffre des données ne répond directement ; le document publié le plus proche est « ${t} » : ${s}`,
    status: { active: 'actif', elevated: 'élevé', monitoring: 'sous surveillance', resolved: 'résolu', dismissed: 'écarté' },
    band: { low: 'faible', moderate: 'modérée', high: 'élevée', severe: 'sévère' },
    hhiBand: { unconcentrated: 'non concentré', 'moderately concentrated': 'modérément concentré', 'highly concentrated': 'très concentré' },
    category: { conflict: 'conflit', sanction: 'sanction', catastrophe: 'catastrophe', policy: 'politique', infrastructure: 'infrastructure' },
  },
  de: {
    cannot: (r) => `Die veröffentlichten Daten können diese Frage nicht beantworten: ${r}.`,
    reasons: {
      nothing: 'sie nennt keinen Rohstoff, kein Land und keinen Indikator, den Chokepoint verfolgt',
      outOfScope: 'Chokepoint veröffentlicht Versorgungsdaten zu Rohstoffen und Energie, nicht zu diesem Thema',
      instructions: 'sie verlangt die Anweisungen des Dienstes oder einen Rollenwechsel, die er nicht gibt; fragen Sie stattdessen nach Versorgungsdaten',
      notCovered: (n) => `Chokepoint deckt „${n}“ nicht ab`,
      forecast: 'Chokepoint veröffentlicht Beobachtungen, keine Prognosen',
      noReserve: (c, p) => `für ${p} gibt es keine Reihe der Reserven (${c})`,
      beforeSeries: (w, f) => `die Reihe (${w}) beginnt am ${f}`,
      noPrice: (n) => `für ${n} gibt es keine öffentliche Preisreihe`,
      needCountry: 'nennen Sie ein Land, um seinen Selbstversorgungsgrad oder seine Importabhängigkeit zu erfahren',
      noProducers: (n) => `für ${n} gibt es keine Produktionszahlen`,
      noCountryData: (p, w) => `für ${p} gibt es keinen Wert (${w})`,
      noScenario: 'kein Szenario passt',
      noEvent: 'kein erfasstes Ereignis passt',
      noEventIn: (f, t) => `Zwischen dem ${f} und dem ${t} passt kein erfasstes Ereignis. `,
    },
    what: {
      storage: 'Speicher',
      price: 'Preis',
      autonomy: 'Selbstversorgung',
      imports: 'Importabhängigkeit',
      production: 'Produktion',
      stress: 'Stressindex',
      concentration: 'Lieferantenkonzentration',
      reserves: 'Reserven',
    },
    eu: 'EU',
    gas: 'Gas',
    storage: (p, pct, d) => `Gasspeicher ${p}: am ${d} zu ${pct} gefüllt`,
    storageVolume: (v, c) => ` (${v}${c ? ` bei einer Kapazität von ${c}` : ''})`,
    cover: (d) => ` Das entspricht etwa ${d} Tagen Verbrauch.`,
    target: (pct, d) => ` Das Ziel sind ${pct} bis zum ${d}.`,
    targetPassed: (pct, d) => ` Die Frist für ${pct} (${d}) ist verstrichen; der obige Wert ist der neueste in den Daten.`,
    spr: (v, u, d) => `Die strategische Erdölreserve der USA enthielt am ${d} ${v} ${u} Rohöl`,
    sprCover: (d) => `, etwa ${d} Tage der Netto-Rohölimporte`,
    price: (n, p, w, b) => `${n}: ${p} ${w} (Reihe der Quelle: „${b}“).`,
    stress: (n, i, b) => `Der Stressindex von ${n} liegt bei ${i} von 100 (${b}).`,
    countryStress: (n, i, b) => `Der Versorgungsstressindex von ${n} liegt bei ${i} von 100 (${b}).`,
    topProducer: (n, c, s, y) => `Größter Produzent von ${n} ist ${c} mit ${s} der Weltproduktion im Jahr ${y}`,
    followedBy: (l) => `, gefolgt von ${l}`,
    countryShare: (c, n, s, r, y) => `${c} hat ${y} einen Anteil von ${s} an der Weltproduktion von ${n} (Rang ${r}).`,
    topReserves: (n, c, s, y) => `${c} hält die größten Reserven von ${n}: ${s} der Weltreserven (${y}).`,
    autonomy: (c, n, p, y) => `Selbstversorgungsgrad von ${c} bei ${n}: ${p} (Inlandsproduktion / Verbrauch, ${y}).`,
    imports: (c, n, p, y) => `Importabhängigkeit von ${c} bei ${n}: ${p} des Verbrauchs (${y}).`,
    mineralImports: (c, n, p, y, s, sh) =>
      `Nettoimportabhängigkeit von ${c} bei ${n}: ${p} des scheinbaren Verbrauchs (USGS, ${y})${s ? `; größter Lieferant ${s}, ${sh} der Importe` : ''}.`,
    hhi: (n, h, b, y) => `Lieferantenkonzentration bei ${n}: HHI ${h} (${b}, ${y}).`,
    scenarios: (n) => `${n} passende(s) Szenario(s): `,
    scenario: (t, s, p, sev) => `${t} (${s}, Wahrscheinlichkeit ${p}, Schwere ${sev}/5)`,
    events: 'Jüngste erfasste Ereignisse: ',
    event: (d, t, c) => `${d}: „${t}“ (${c})`,
    related: (t) => ` Siehe auch: „${t}“.`,
    searchOnly: (t, s) => `Keine Zahl in den Daten beantwortet das direkt; das nächstliegende veröffentlichte Dokument ist „${t}“: ${s}`,
    status: { active: 'aktiv', elevated: 'erhöht', monitoring: 'unter Beobachtung', resolved: 'beendet', dismissed: 'verworfen' },
    band: { low: 'niedrig', moderate: 'mäßig', high: 'hoch', severe: 'schwer' },
    hhiBand: { unconcentrated: 'nicht konzentriert', 'moderately concentrated': 'mäßig konzentriert', 'highly concentrated': 'hoch konzentriert' },
    category: { conflict: 'Konflikt', sanction: 'Sanktion', catastrophe: 'Katastrophe', policy: 'Politik', infrastructure: 'Infrastruktur' },
  },
  es: {
    cannot: (r) => `Los datos publicados no permiten responder a esta pregunta: ${r}.`,
    reasons: {
      nothing: 'no nombra ninguna materia prima, país ni indicador que Chokepoint siga',
      outOfScope: 'Chokepoint publica datos de suministro de materias primas y energía, no sobre este tema',
      instructions: 'pide las instrucciones del servicio o un cambio de papel, que no da; pregunte en cambio por los datos de suministro',
      notCovered: (n) => `Chokepoint no cubre «${n}»`,
      forecast: 'Chokepoint publica observaciones, no previsiones',
      noReserve: (c, p) => `no hay serie de reservas de ${c} para ${p}`,
      beforeSeries: (w, f) => `la serie (${w}) empieza el ${f}`,
      noPrice: (n) => `no hay serie pública de precios para ${n}`,
      needCountry: 'nombre un país para obtener su autosuficiencia o su dependencia de las importaciones',
      noProducers: (n) => `no hay cifras de producción para ${n}`,
      noCountryData: (p, w) => `no hay ninguna cifra (${w}) para ${p}`,
      noScenario: 'ningún escenario coincide',
      noEvent: 'ningún evento registrado coincide',
      noEventIn: (f, t) => `Ningún evento registrado coincide entre el ${f} y el ${t}. `,
    },
    what: {
      storage: 'almacenamiento',
      price: 'precio',
      autonomy: 'autosuficiencia',
      imports: 'dependencia de las importaciones',
      production: 'producción',
      stress: 'índice de estrés',
      concentration: 'concentración de proveedores',
      reserves: 'reservas',
    },
    eu: 'la UE',
    gas: 'gas',
    storage: (p, pct, d) => `Almacenamiento de gas en ${p}: lleno al ${pct} el ${d}`,
    storageVolume: (v, c) => ` (${v}${c ? ` de una capacidad de ${c}` : ''})`,
    cover: (d) => ` Equivale a unos ${d} días de consumo.`,
    target: (pct, d) => ` El objetivo es el ${pct} para el ${d}.`,
    targetPassed: (pct, d) => ` El plazo para alcanzar el ${pct} (${d}) ha pasado; el valor anterior es el más reciente de los datos.`,
    spr: (v, u, d) => `La Reserva Estratégica de Petróleo de EE. UU. contenía ${v} ${u} de crudo el ${d}`,
    sprCover: (d) => `, unos ${d} días de importaciones netas de crudo`,
    price: (n, p, w, b) => `${n}: ${p} ${w} (serie de la fuente: «${b}»).`,
    stress: (n, i, b) => `El índice de estrés de ${n} es ${i} sobre 100 (${b}).`,
    countryStress: (n, i, b) => `El índice de estrés de suministro de ${n} es ${i} sobre 100 (${b}).`,
    topProducer: (n, c, s, y) => `El mayor productor de ${n} es ${c}, con el ${s} de la producción mundial en ${y}`,
    followedBy: (l) => `, seguido de ${l}`,
    countryShare: (c, n, s, r, y) => `${c} representa el ${s} de la producción mundial de ${n} en ${y} (puesto ${r}).`,
    topReserves: (n, c, s, y) => `${c} tiene las mayores reservas de ${n}: el ${s} del total mundial (${y}).`,
    autonomy: (c, n, p, y) => `Autosuficiencia de ${c} en ${n}: ${p} (producción nacional / consumo, ${y}).`,
    imports: (c, n, p, y) => `Dependencia de ${c} de las importaciones de ${n}: ${p} del consumo (${y}).`,
    mineralImports: (c, n, p, y, s, sh) =>
      `Dependencia neta de ${c} de las importaciones de ${n}: ${p} del consumo aparente (USGS, ${y})${s ? `; primer proveedor ${s}, ${sh} de las importaciones` : ''}.`,
    hhi: (n, h, b, y) => `Concentración de proveedores de ${n}: HHI ${h} (${b}, ${y}).`,
    scenarios: (n) => `${n} escenario(s) coinciden: `,
    scenario: (t, s, p, sev) => `${t} (${s}, probabilidad ${p}, gravedad ${sev}/5)`,
    events: 'Últimos eventos registrados: ',
    event: (d, t, c) => `${d}: «${t}» (${c})`,
    related: (t) => ` Relacionado: «${t}».`,
    searchOnly: (t, s) => `Ninguna cifra de los datos responde directamente; el documento publicado más cercano es «${t}»: ${s}`,
    status: { active: 'activo', elevated: 'elevado', monitoring: 'en vigilancia', resolved: 'resuelto', dismissed: 'descartado' },
    band: { low: 'bajo', moderate: 'moderado', high: 'alto', severe: 'grave' },
    hhiBand: { unconcentrated: 'no concentrado', 'moderately concentrated': 'moderadamente concentrado', 'highly concentrated': 'muy concentrado' },
    category: { conflict: 'conflicto', sanction: 'sanción', catastrophe: 'catástrofe', policy: 'política', infrastructure: 'infraestructura' },
  },
};
