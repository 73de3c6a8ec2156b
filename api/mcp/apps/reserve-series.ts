import { appPage } from './runtime.ts';

/** get_reserve_timeseries: the series as a line, 0–100 for a fill percentage, from zero for a stock. */
const RENDER = `function render(d,root){
var names={fill_pct:'Fill level',volume:'Stored volume',days_of_cover:'Days of cover'},label=(names[d.metric]||d.metric)+', '+d.commodity+' reserve, '+String(d.country).toUpperCase();
html('h1',label,root);var last=d.points[d.points.length-1];
html('p',(last?fmt(last.value)+' '+d.unit+' on '+last.date+' · ':'')+d.points.length+' '+d.frequency+' points, '+d.from+' to '+d.to,root);
lineChart(root,{points:d.points,unit:d.unit,yMin:0,yMax:d.metric==='fill_pct'?100:undefined,height:220,title:label+' ('+d.unit+')',desc:describe(label,d.points,d.unit)});}`;

export const RESERVE_SERIES_HTML = appPage('chokepoint-reserve-series', 'Reserve series', RENDER);
