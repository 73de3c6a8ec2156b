import { appPage } from './runtime.ts';

/** get_commodity: the price history above the monthly stress index (with its band limits). */
const RENDER = `function render(d,root){
html('h1',d.name+' — price and supply stress',root);
html('p','Stress '+fmt(d.stress_index,1)+(d.stress_band?' ('+d.stress_band+')':'')+(d.price?' · '+fmt(d.price.value)+' '+d.price.currency+(d.price.unit?'/'+d.price.unit:'')+' on '+d.price.as_of:''),root);
var ph=d.price_history,unit=ph?ph.currency+(ph.unit?'/'+ph.unit:''):'';
if(ph&&ph.points.length){var pl='Price, '+ph.frequency+' ('+unit+')';lineChart(root,{points:ph.points,unit:unit,height:170,title:pl,desc:describe(pl,ph.points,unit)});}
else html('p','No public price series.',root);
var sp=(d.stress_history||[]).filter(function(p){return p.index!==null;}).map(function(p){return {date:p.date,value:p.index};}),sl='Stress index, monthly (0–100)';
lineChart(root,{points:sp,unit:'',yMin:0,yMax:100,height:150,cls:'s2',title:sl,desc:describe(sl,sp,''),guides:[{value:25,label:'moderate'},{value:50,label:'high'},{value:75,label:'severe'}]});}`;

export const COMMODITY_HISTORY_HTML = appPage('chokepoint-commodity-history', 'Commodity price and stress', RENDER);
