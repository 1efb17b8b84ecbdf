// The page's inline style sheet: layout, the cards, the charts' strokes and fills, the tables,
// and print.

/** The style sheet. */
export const CSS = `
:root{--ink:#1f2328;--muted:#59636e;--rule:#d1d9e0;--band:#eef3f8;--up:#0066a8;--down:#c24e00;--none:#7d8590}
*{box-sizing:border-box}
html{-webkit-print-color-adjust:exact;print-color-adjust:exact}
body{margin:0;background:#fff;color:var(--ink);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Helvetica Neue",Arial,sans-serif}
main{max-width:1160px;margin:0 auto;padding:32px 28px 48px}
h1{font-size:27px;line-height:1.25;margin:0 0 6px;letter-spacing:-.01em}
h2{font-size:20px;margin:40px 0 6px;padding-top:14px;border-top:1px solid var(--rule)}
h3{font-size:16px;margin:26px 0 8px}
p{margin:0 0 10px;max-width:80ch}
code{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,"DejaVu Sans Mono",monospace;font-size:.86em;color:#3d444d}
small,.muted{color:var(--muted)}
.lede{font-size:16px;color:#3d444d}
.meta{display:grid;grid-template-columns:1fr 1fr;gap:8px 32px;align-items:start;margin-top:14px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 14px;margin:0;font-size:14px}
dt{color:var(--muted)}dd{margin:0}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(190px,1fr));gap:12px;margin:12px 0}
.card{border:1px solid var(--rule);border-top:4px solid var(--none);border-radius:6px;padding:10px 12px;break-inside:avoid}
.card.up{border-top-color:var(--up)}.card.down{border-top-color:var(--down)}
.card .name{font-size:13px;color:var(--muted);font-weight:600}
.card .move{font-size:18px;font-variant-numeric:tabular-nums}
.card .delta{font-variant-numeric:tabular-nums;font-weight:700;font-size:16px}
.card .ci{font-variant-numeric:tabular-nums;font-size:12.5px;color:var(--muted);white-space:nowrap}
.summary,.legend{font-size:14px;color:#3d444d}
.legend{display:flex;flex-wrap:wrap;gap:6px 22px;max-width:none}
.mark.up,.legend .up,.card.up .delta{color:var(--up)}.mark.down,.legend .down,.card.down .delta{color:var(--down)}.mark.none,.legend .none{color:var(--none)}
figure{margin:10px 0 0;break-inside:avoid;overflow-x:auto}
figcaption{font-size:13.5px;color:var(--muted);margin-top:6px;max-width:110ch}
svg.chart{display:block;width:100%;height:auto;max-width:1100px;min-width:960px;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",Arial,sans-serif}
.chart text{font-size:12.5px;fill:var(--ink);font-variant-numeric:tabular-nums}
.chart text.group{font-weight:700;font-size:13.5px}
.chart text.panel{font-weight:700;font-size:14.5px}
.chart text.note,.chart text.tick,.chart text.colhead,.chart text.dir{fill:var(--muted);font-size:12px}
.chart text.axis-title{fill:var(--muted);font-size:12.5px}
.chart text.strong{font-weight:700}
.chart text.sub{fill:var(--muted);font-size:11.5px}
.chart tspan.code{fill:var(--muted);font-weight:400;font-size:11.5px;font-family:ui-monospace,Menlo,Consolas,"DejaVu Sans Mono",monospace}
.chart .band{fill:var(--band)}
.chart .sep{stroke:var(--rule)}.chart .gap{fill:#fff}
.chart .grid{stroke:#e6eaef}
.chart .zero{stroke:#4b535c;stroke-width:1.4}
.chart .axis,.chart .tick{stroke:#8c959f}
.chart .ci,.chart .cap{stroke:var(--none);stroke-width:2}
.chart .point{fill:#fff;stroke:var(--none);stroke-width:2}
.chart .up .ci,.chart .up .cap{stroke:var(--up)}.chart .up .point{fill:var(--up);stroke:var(--up)}
.chart .down .ci,.chart .down .cap{stroke:var(--down)}.chart .down .point{fill:var(--down);stroke:var(--down)}
.chart .up text.sym{fill:var(--up)}.chart .down text.sym{fill:var(--down)}.chart .none text.sym{fill:var(--none)}
table{border-collapse:collapse;font-size:14px;font-variant-numeric:tabular-nums}
th,td{padding:4px 12px;text-align:left;vertical-align:baseline}
thead th{font-size:12.5px;color:var(--muted);font-weight:600;border-bottom:1.5px solid #8c959f}
.n{text-align:right;white-space:nowrap}.c{text-align:center}.m{text-align:center;width:2em}
table.inputs{font-size:13.5px}table.inputs th,table.inputs td{padding:2px 12px 2px 0}
table.metrics{width:100%;margin-top:6px}
caption{text-align:left;font-size:16px;font-weight:700;padding:26px 0 8px}
table.metrics tbody th{font-weight:500}
table.metrics td.v{padding-right:4px}table.metrics td.f{padding-left:0;font-size:12.5px;color:var(--muted);white-space:nowrap}
table.metrics th code{color:var(--muted);font-size:12px;margin-left:6px}
table.metrics tr:not(.slice) td,table.metrics tr:not(.slice) th{border-bottom:1px solid #eaeef2}
table.metrics tr.slice th{padding-top:14px;font-weight:700;border-bottom:1px solid var(--rule)}
table.metrics tbody.overall tr:not(.slice){background:var(--band)}
table.metrics td.d{font-weight:600}
tr.up td.d{color:var(--up)}tr.down td.d{color:var(--down)}
tbody{break-inside:avoid}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
footer{margin-top:40px;padding-top:12px;border-top:1px solid var(--rule);font-size:13px;color:var(--muted)}
@page{margin:12mm}
@media print{body{font-size:10.5pt}main{max-width:none;padding:0}h2{break-after:avoid}h2,h3,h2+p,p.legend{break-after:avoid}svg.chart{max-height:245mm}table.metrics thead{display:table-header-group}}
`;
