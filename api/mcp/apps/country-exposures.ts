import { appPage } from './runtime.ts';

/** Bars drawn at most: the largest exposures, the others counted below the chart. */
export const MAX_BARS = 16;

/** get_country_profile: import dependence per commodity (energy) and net import reliance (minerals), largest first, with the main supplier. */
const RENDER = `function render(d,root){
html('h1',d.name+' — import exposure',root);
html('p','Supply stress '+fmt(d.stress_index,1)+(d.stress_band?' ('+d.stress_band+')':'')+' · share of consumption imported, by commodity',root);
function top(s){s=(s||[]).filter(function(x){return x.iso3;});return s.length?s[0].name+' '+fmt(s[0].share*100,0)+' %':'';}
var rows=(d.exposures||[]).filter(function(e){return e.import_dependence!==null;}).map(function(e){return {c:e.commodity,v:e.import_dependence,k:'f1',s:top(e.suppliers)};})
.concat((d.mineral_exposures||[]).filter(function(m){return m.net_import_reliance!==null;}).map(function(m){return {c:m.commodity,v:m.net_import_reliance,k:'f3',s:top(m.suppliers)};}))
.sort(function(a,b){return b.v-a.v;}),shown=rows.slice(0,${MAX_BARS}),RH=24,H=shown.length*RH+8,L=96,W=600,BW=300;
var desc=shown.map(function(r){return r.c.split('.')[1]+' '+fmt(r.v*100,0)+' %';}).join(', ');
var s=svg(root,Math.max(H,30),d.name+': share of consumption imported, by commodity',rows.length?'Largest first: '+desc+'.':'No exposure figures.');
shown.forEach(function(r,i){var y=4+i*RH;el('text',{x:L-8,y:y+15,'text-anchor':'end'},s,r.c.split('.')[1]);
el('rect',{x:L,y:y+3,width:BW,height:16,'class':'grid',fill:'none'},s);
el('rect',{x:L,y:y+3,width:Math.max(1,r.v*BW).toFixed(1),height:16,'class':r.k,'data-value':String(r.v),'data-commodity':r.c},s);
el('text',{x:L+BW+8,y:y+15,'class':'v'},s,fmt(r.v*100,0)+' %'+(r.s?' · '+r.s:''));});
if(rows.length>shown.length)html('p',(rows.length-shown.length)+' smaller exposures in the data.',root);
var kinds=[];if(shown.some(function(r){return r.k==='f1';}))kinds.push('Blue: energy (import dependence)');
if(shown.some(function(r){return r.k==='f3';}))kinds.push('Green: minerals (net import reliance)');if(kinds.length)html('p',kinds.join(' · '),root);}`;

export const COUNTRY_EXPOSURES_HTML = appPage('chokepoint-country-exposures', 'Country import exposure', RENDER);
