/** The report page's inline stylesheet (system fonts only, nothing fetched). */
export const REPORT_STYLE = `
:root { color-scheme: light; --ink: #1d2430; --muted: #5b6472; --line: #d9dee6; --context: #2563eb; --nocompact: #8a94a6; --nocache: #c2410c; --agent: #d97706; --gateway: #dc2626; --window: #111827; --miss: #7c3aed; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink); background: #f7f8fa; }
main { max-width: 1040px; margin: 0 auto; padding: 24px 20px 64px; }
h1 { font-size: 22px; margin: 0 0 4px; word-break: break-all; }
h2 { font-size: 17px; margin: 28px 0 10px; }
.banner { margin: 0 0 8px; font-weight: 600; }
.lead { margin: 0 0 8px; }
.muted { color: var(--muted); }
section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 4px 18px 14px; margin-top: 16px; }
figure { margin: 0; }
figcaption { color: var(--muted); font-size: 13px; margin-top: 4px; }
table { border-collapse: collapse; width: 100%; font-size: 13.5px; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
table.summary thead { display: none; }
table.summary td:first-child { color: var(--muted); white-space: nowrap; width: 1%; }
table.requests td:nth-child(-n+8), table.compactions td:nth-child(n+3) { white-space: nowrap; }
details summary { cursor: pointer; font-weight: 600; margin: 14px 0 8px; }
ul.notes { margin: 0; padding-left: 20px; }
svg.chart { width: 100%; height: auto; display: block; font-size: 12px; }
svg.chart text { fill: var(--muted); }
svg.chart .grid { stroke: #eef1f5; }
svg.chart .axis-line { stroke: var(--muted); }
svg.chart .series { fill: none; stroke-width: 2; stroke-linejoin: round; }
svg.chart .s-context { stroke: var(--context); }
svg.chart .s-nocompact { stroke: var(--nocompact); stroke-dasharray: 6 4; }
svg.chart .s-nocache { stroke: var(--nocache); stroke-dasharray: 2 3; }
svg.chart .legend-item line { stroke-width: 2.5; }
svg.chart .rule line { stroke-width: 1.2; stroke-dasharray: 5 4; }
svg.chart .r-agent line { stroke: var(--agent); }
svg.chart .r-agent text { fill: var(--agent); }
svg.chart .r-gateway line { stroke: var(--gateway); }
svg.chart .r-gateway text { fill: var(--gateway); }
svg.chart .r-window line { stroke: var(--window); stroke-dasharray: none; }
svg.chart .marker line { stroke-width: 2; }
svg.chart .m-agent line { stroke: var(--agent); }
svg.chart .m-agent circle { fill: var(--agent); }
svg.chart .m-gateway line { stroke: var(--gateway); }
svg.chart .m-gateway circle { fill: var(--gateway); }
svg.chart .miss-marker line { stroke: var(--miss); stroke-dasharray: 3 3; }
svg.chart .miss-marker circle { fill: var(--miss); }
svg.chart .cursor { stroke: #9aa3b2; stroke-width: 1; }
.readout { position: fixed; pointer-events: none; background: #111827; color: #fff; font-size: 12.5px; line-height: 1.45; padding: 6px 9px; border-radius: 6px; white-space: pre; box-shadow: 0 2px 8px rgba(0,0,0,.25); }
`;
