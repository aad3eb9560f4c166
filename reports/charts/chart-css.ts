// The stylesheet of the charts (xy-chart.ts, bar-rows.ts), part of every
// page's one stylesheet (look.ts). Labels, ticks and legends are page text at
// 12 px or more; only the marks are SVG, stretched to the plot's box with
// strokes that keep their width, so a chart fills a desktop and stays
// readable on a phone.
export const CHART_CSS = `
.chart{margin:12px 0 22px;font-size:12px;color:#57606a;max-width:100%}
.chart figcaption{font-weight:600;color:#1b1f24;font-size:13px;margin:0 0 4px}
.chart .legend{display:flex;flex-wrap:wrap;gap:2px 14px;margin:2px 0 6px}
.chart .key{display:inline-flex;align-items:center;gap:5px;white-space:nowrap}
.chart .key i{display:inline-block;width:16px;height:10px;border-radius:2px}
.chart .key i.line{height:3px}.chart .key i.dash{height:0;border-top:2px dashed;background:none!important}
.chart .ptitle{margin:8px 0 2px 4.2em;color:#3d444d}
.chart .plot{position:relative;margin:0 1.6em 0 4.2em}
.chart .plot svg{position:absolute;left:0;top:0;width:100%;height:100%;overflow:visible}
.chart .yt{position:absolute;right:calc(100% + 6px);transform:translateY(50%);white-space:nowrap}
.chart .ref{position:absolute;right:2px;white-space:nowrap;background:rgba(255,255,255,.8);padding:0 3px;font-weight:600}
.chart .xmark{position:absolute;top:2px;transform:translateX(4px);white-space:nowrap;background:rgba(255,255,255,.85);padding:0 3px;font-weight:600}
.chart .xaxis{position:relative;height:1.7em;margin:0 1.6em 0 4.2em}
.chart .xt{position:absolute;top:3px;transform:translateX(-50%);white-space:nowrap}
.chart .atitle{text-align:center;margin:0 1.6em 0 4.2em}
.chart .bars{display:grid;grid-template-columns:minmax(6em,22%) 1fr minmax(4em,30%);gap:5px 10px;align-items:center}
.chart .blabel{color:#1b1f24;overflow-wrap:anywhere}
.chart .btrack{position:relative;height:14px;background:#f6f8fa;border-radius:2px}
.chart .btrack span{position:absolute;top:0;height:100%}
.chart .btrack .limit{top:-3px;height:20px;width:0;border-left:2px dashed #1b1f24}
.chart .btrack .dot{width:8px;height:8px;top:3px;border-radius:50%;transform:translateX(-4px)}
.chart .btrack .bgrid{top:-3px;height:20px;width:0;border-left:1px solid #d0d7de}
.chart .bvalue{color:#1b1f24}
.chart .baxis{position:relative;height:1.5em}
.chart .baxis span{position:absolute;top:0;transform:translateX(-50%);white-space:nowrap}
@media (max-width:640px){
.chart .bars{grid-template-columns:1fr;gap:2px}.chart .blabel{margin-top:6px}.chart .bars .axis:not(.baxis){display:none}
.chart .baxis{margin:0 1em}.chart .btrack{margin:0 1em}
.chart .plot,.chart .xaxis,.chart .atitle{margin-left:3.4em;margin-right:1.2em}.chart .ptitle{margin-left:3.4em}
}`;
