import { MCP_APPS } from '../../../contract/tools.ts';

/**
 * What every Chokepoint MCP App shares: the page, its styles (light and dark, the host's theme
 * variables when it passes them) and the View side of the MCP Apps handshake, written by hand
 * (no bundle, no external fetch):
 *
 *   View → Host  ui/initialize (request), then ui/notifications/initialized
 *   Host → View  ui/notifications/tool-input, ui/notifications/tool-result (a CallToolResult),
 *                ui/notifications/host-context-changed, ui/resource-teardown, ping
 *   View → Host  ui/notifications/size-changed whenever the drawing changes size
 *
 * Only messages from the parent window are read. Each app defines `render(data, root)`, which
 * draws the tool's structuredContent; a result without one (an error) shows its text.
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

const RUNTIME = `'use strict';
var NS='http://www.w3.org/2000/svg',nextId=1,pending={},locale,lastSize='',uid=0;
function send(m){m.jsonrpc='2.0';window.parent.postMessage(m,'*');}
function request(method,params){var id=nextId++;send({id:id,method:method,params:params});return new Promise(function(ok,ko){pending[id]=[ok,ko];});}
function notify(method,params){send({method:method,params:params||{}});}
function applyContext(c){if(!c)return;var r=document.documentElement;if(c.theme==='light'||c.theme==='dark')r.setAttribute('data-theme',c.theme);
var v=c.styles&&c.styles.variables;if(v)for(var k in v)if(typeof v[k]==='string'&&/^--[a-z0-9-]+$/.test(k))r.style.setProperty(k,v[k]);
if(c.locale)locale=c.locale;var d=c.containerDimensions;if(d&&d.maxHeight)r.style.maxHeight=d.maxHeight+'px';}
function reportSize(){var e=document.documentElement,w=Math.ceil(e.scrollWidth),h=Math.ceil(e.scrollHeight),s=w+'x'+h;if(s===lastSize)return;lastSize=s;notify('ui/notifications/size-changed',{width:w,height:h});}
function textOf(r){return r&&r.content?r.content.filter(function(c){return c.type==='text';}).map(function(c){return c.text;}).join('\\n'):'';}
function show(r){var root=document.getElementById('app'),d=r&&r.structuredContent;root.textContent='';
if(!d||r.isError){var p=document.createElement('p');p.textContent=textOf(r)||'No data.';root.appendChild(p);reportSize();return;}
try{render(d,root);var f=document.createElement('footer');f.textContent=(d.as_of?'Data as of '+d.as_of+' · ':'')+(d.attribution||'Source: Chokepoint, CC-BY-4.0');root.appendChild(f);}
catch(e){root.textContent='Cannot draw this result: '+e.message;}reportSize();}
window.addEventListener('message',function(ev){if(ev.source!==window.parent)return;var m=ev.data;if(!m||m.jsonrpc!=='2.0')return;
if(m.id!==undefined&&m.id!==null&&!m.method){var p=pending[m.id];if(p){delete pending[m.id];if(m.error)p[1](m.error);else p[0](m.result);}return;}
if(m.method==='ui/notifications/tool-result')show(m.params);else if(m.method==='ui/notifications/host-context-changed')applyContext(m.params);
else if(m.id!==undefined&&m.id!==null){if(m.method==='ui/resource-teardown'||m.method==='ping')send({id:m.id,result:{}});else send({id:m.id,error:{code:-32601,message:'Method not found: '+m.method}});}});
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

const BOOT = (name: string) =>
  `request('ui/initialize',{protocolVersion:'${MCP_APPS.protocolVersion}',appInfo:{name:'${name}',version:'1.0.0'},appCapabilities:{availableDisplayModes:['inline']}})` +
  `.then(function(r){applyContext(r&&r.hostContext);notify('ui/notifications/initialized',{});},function(){});` +
  `if(window.ResizeObserver)new ResizeObserver(reportSize).observe(document.body);`;

/** A self-contained app page: the styles, the runtime, the app's `render` and the handshake. */
export function appPage(name: string, title: string, render: string): string {
  return (
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${title}</title><style>${STYLE}</style></head><body><main id="app" aria-live="polite"><p>Waiting for the tool result…</p></main>` +
    `<script>${RUNTIME}${render}\n${BOOT(name)}</script></body></html>`
  );
}
