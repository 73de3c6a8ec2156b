import { VIEW_SCRIPT } from './view-script.generated.ts';

/**
 * What every Chokepoint MCP App shares: the page, its styles (light and dark, the host's theme
 * variables when it passes them) and its drawing helpers. The MCP Apps handshake is the official
 * View (`App` of @modelcontextprotocol/ext-apps, view.ts), inlined as a bundle: it answers
 * ui/initialize, draws each ui/notifications/tool-result, follows host-context-changed and reports
 * the drawing's size. Each app defines `render(data, root)`, which draws the tool's
 * structuredContent; a result without one (an error) shows its text.
 */

const STYLE = `
:root{color-scheme:light dark;--fg:var(--color-text-primary,light-dark(#1b1f24,#e8eaed));--muted:var(--color-text-secondary,light-dark(#59636e,#9aa4af));
--bg:var(--color-background-primary,light-dark(#fff,#16181b));--grid:var(--color-border-tertiary,light-dark(#e3e6ea,#2c3036));
--c1:light-dark(#1d63d8,#6ea8ff);--c2:light-dark(#c4511a,#ff9a5c);--c3:light-dark(#2f7d4f,#5fcf8e);font-family:var(--font-sans,system-ui,sans-serif)}
:root[data-theme=light]{color-scheme:light}:root[data-theme=dark]{color-scheme:dark}
html,body{margin:0;background:var(--bg);color:var(--fg)}body{padding:12px 14px;max-width:720px;font-size:13px;line-height:1.4}
h1{font-size:15px;margin:0 0 2px;font-weight:600}p{margin:0 0 8px;color:var(--muted)}svg{display:block;width:100%;height:auto;overflow:visible}
svg text{fill:var(--muted);font-size:11px}.grid{stroke:var(--grid);stroke-width:1}.line{fill:none;stroke-width:2;stroke-linejoin:round}
.s1{stroke:var(--c1)}.s2{stroke:var(--c2)}.f1{fill:var(--c1)}.f2{fill:var(--c2)}.f3{fill:var(--c3)}svg text.v{fill:var(--fg)}
.rule{stroke:var(--muted);stroke-dasharray:3 3}footer{margin-top:8px;color:var(--muted);font-size:11px}
`
  .replace(/\n/g, '')
  .trim();

const DRAWING = `'use strict';
var NS='http://www.w3.org/2000/svg',locale,uid=0;
function textOf(r){return r&&r.content?r.content.filter(function(c){return c.type==='text';}).map(function(c){return c.text;}).join('\\n'):'';}
function show(r){var root=document.getElementById('app'),d=r&&r.structuredContent;root.textContent='';
if(!d||r.isError){var p=document.createElement('p');p.textContent=textOf(r)||'No data.';root.appendChild(p);return;}
try{render(d,root);var f=document.createElement('footer');f.textContent=(d.as_of?'Data as of '+d.as_of+' · ':'')+(d.attribution||'Source: Chokepoint, CC-BY-4.0');root.appendChild(f);}
catch(e){root.textContent='Cannot draw this result: '+e.message;}}
function el(name,attrs,parent,text){var e=document.createElementNS(NS,name);for(var k in attrs)e.setAttribute(k,attrs[k]);if(text!==undefined)e.textContent=text;if(parent)parent.appendChild(e);return e;}
function html(name,text,parent){var e=document.createElement(name);e.textContent=text;parent.appendChild(e);return e;}
function fmt(v,digits){if(v===null||v===undefined||!isFinite(v))return 'n/a';var a=Math.abs(v);return Number(v).toLocaleString(locale,{maximumFractionDigits:digits!==undefined?digits:a>=1000?0:a>=10?1:2});}
function svg(parent,height,title,desc){var id='c'+(++uid),s=el('svg',{viewBox:'0 0 600 '+height,role:'img','aria-labelledby':id+'t '+id+'d'},parent);
el('title',{id:id+'t'},s,title);el('desc',{id:id+'d'},s,desc);return s;}
function ticks(lo,hi,n){var span=hi-lo||1,step=Math.pow(10,Math.floor(Math.log10(span/n))),f=span/n/step;step*=f>5?10:f>2?5:f>1?2:1;var out=[];for(var v=Math.ceil(lo/step)*step;v<=hi+1e-9;v+=step)out.push(+v.toFixed(10));return out;}
function lineChart(parent,o){var pts=o.points,W=600,H=o.height||200,L=48,R=14,T=10,B=22,s=svg(parent,H,o.title,o.desc);
if(!pts.length){el('text',{x:L,y:H/2},s,'No observation in this period.');return s;}
var xs=pts.map(function(p){return Date.parse(p.date);}),ys=pts.map(function(p){return p.value;}),x0=Math.min.apply(null,xs),x1=Math.max.apply(null,xs);
var y0=o.yMin!==undefined?o.yMin:Math.min.apply(null,ys),y1=o.yMax!==undefined?Math.max(o.yMax,Math.max.apply(null,ys)):Math.max.apply(null,ys);if(y1===y0){y1=y0+1;}
var yt=ticks(y0,y1,4);y0=Math.min(y0,yt[0]);y1=Math.max(y1,yt[yt.length-1]);
function X(t){return L+(x1===x0?0.5:(t-x0)/(x1-x0))*(W-L-R);}function Y(v){return T+(1-(v-y0)/(y1-y0))*(H-T-B);}
yt.forEach(function(v){el('line',{x1:L,x2:W-R,y1:Y(v),y2:Y(v),'class':'grid'},s);el('text',{x:L-6,y:Y(v)+4,'text-anchor':'end'},s,fmt(v));});
(o.guides||[]).forEach(function(g){if(g.value>y0&&g.value<y1){el('line',{x1:L,x2:W-R,y1:Y(g.value),y2:Y(g.value),'class':'rule'},s);el('text',{x:W-R,y:Y(g.value)-3,'text-anchor':'end'},s,g.label);}});
var y0d=new Date(x0).getUTCFullYear(),y1d=new Date(x1).getUTCFullYear(),yrs=y1d-y0d,stepY=Math.max(1,Math.ceil(yrs/6));
if(yrs>=2){for(var y=y0d+1;y<=y1d;y+=stepY){var t=Date.UTC(y,0,1);el('text',{x:X(t),y:H-6,'text-anchor':'middle'},s,String(y));el('line',{x1:X(t),x2:X(t),y1:T,y2:H-B,'class':'grid'},s);}}
else{el('text',{x:L,y:H-6},s,pts[0].date);el('text',{x:W-R,y:H-6,'text-anchor':'end'},s,pts[pts.length-1].date);}
el('polyline',{points:pts.map(function(p,i){return X(xs[i]).toFixed(1)+','+Y(p.value).toFixed(1);}).join(' '),'class':'line '+(o.cls||'s1'),'data-points':String(pts.length)},s);
var last=pts[pts.length-1];el('circle',{cx:X(xs[xs.length-1]),cy:Y(last.value),r:3,'class':(o.cls==='s2'?'f2':'f1')},s);
var rule=el('line',{y1:T,y2:H-B,'class':'rule',visibility:'hidden'},s),tip=el('text',{y:T+10,'class':'v',visibility:'hidden'},s);
s.addEventListener('pointermove',function(ev){var b=s.getBoundingClientRect(),px=(ev.clientX-b.left)*W/b.width,i=0,best=Infinity;xs.forEach(function(t,j){var d=Math.abs(X(t)-px);if(d<best){best=d;i=j;}});
var x=X(xs[i]);rule.setAttribute('x1',x);rule.setAttribute('x2',x);rule.setAttribute('visibility','visible');tip.textContent=pts[i].date+': '+fmt(pts[i].value)+' '+(o.unit||'');
tip.setAttribute('x',x>W/2?x-6:x+6);tip.setAttribute('text-anchor',x>W/2?'end':'start');tip.setAttribute('visibility','visible');});
s.addEventListener('pointerleave',function(){rule.setAttribute('visibility','hidden');tip.setAttribute('visibility','hidden');});return s;}
function describe(label,pts,unit){if(!pts.length)return label+': no observation.';var lo=pts[0],hi=pts[0];pts.forEach(function(p){if(p.value<lo.value)lo=p;if(p.value>hi.value)hi=p;});
return label+', '+pts.length+' points from '+pts[0].date+' to '+pts[pts.length-1].date+': last '+fmt(pts[pts.length-1].value)+' '+unit+', low '+fmt(lo.value)+' on '+lo.date+', high '+fmt(hi.value)+' on '+hi.date+'.';}
`;

/** What view.ts reads: the app's name for the handshake, and how to draw a result and follow the host's context. */
const PAGE = (name: string) =>
  `var chokepoint={name:${JSON.stringify(name)},show:show,setLocale:function(l){locale=l;},` +
  `setMaxHeight:function(px){document.documentElement.style.maxHeight=px+'px';}};`;

/** `</` would end the inline script early; `<\/` is the same in any JavaScript string or regex. */
const inline = (script: string) => script.replace(/<\//g, '<\\/');

/**
 * A self-contained app page: the styles, the drawing helpers and the app's `render` (one classic
 * script), then the ext-apps View (VIEW_SCRIPT). Nothing is fetched: the host's restrictive
 * default CSP (inline scripts and styles only) is enough.
 */
export function appPage(name: string, title: string, render: string): string {
  return (
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${title}</title><style>${STYLE}</style></head><body><main id="app" aria-live="polite"><p>Waiting for the tool result…</p></main>` +
    `<script>${DRAWING}${render}\n${PAGE(name)}</script><script>${inline(VIEW_SCRIPT)}</script></body></html>`
  );
}
