/** The dashboard's one stylesheet, served at /assets/dashboard.css (behind auth like every route). */
export const DASHBOARD_CSS = `
:root { color-scheme: light; --ink: #1d2430; --muted: #5b6578; --line: #d9dee7; --ok: #1f7a3a; --bad: #b3261e;
--warn: #8a5a00; --accent: #2454c7; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: #f6f7fa; }
header { display: flex; gap: 1.5rem; align-items: center; padding: .75rem 1.5rem; background: #1d2430; color: #fff; }
header a { color: #cfd8ea; text-decoration: none; } header a:hover { color: #fff; }
header .brand { font-weight: 600; color: #fff; margin-right: 1rem; }
header .mode { margin-left: auto; font-size: 12px; padding: 2px 8px; border-radius: 10px; background: #394255; }
main { padding: 1.25rem 1.5rem; max-width: 1400px; }
h1 { font-size: 20px; margin: 0 0 1rem; } h2 { font-size: 16px; margin: 1.5rem 0 .5rem; }
table { border-collapse: collapse; width: 100%; background: #fff; border: 1px solid var(--line); }
th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: #eef1f6; font-weight: 600; font-size: 12px; text-transform: uppercase; letter-spacing: .03em; color: var(--muted); }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
code, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, monospace; font-size: 12px; word-break: break-all; }
.ok { color: var(--ok); font-weight: 600; } .bad { color: var(--bad); font-weight: 600; } .warn { color: var(--warn); font-weight: 600; }
.muted { color: var(--muted); }
.banner { padding: .6rem 1.5rem; background: #fdecea; border-bottom: 1px solid #f1b5ae; }
.flash { padding: .6rem 1rem; margin-bottom: 1rem; border-radius: 4px; background: #e3f1e7; border: 1px solid #9fd0ad; }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(320px, 1fr)); gap: 1rem; }
.card { background: #fff; border: 1px solid var(--line); padding: .75rem 1rem; }
.card dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0; }
.card dt { color: var(--muted); } .card dd { margin: 0; overflow-wrap: anywhere; }
button { font: inherit; padding: 6px 14px; border: 0; border-radius: 4px; background: var(--accent); color: #fff; cursor: pointer; }
tr.attention td { background: #fdecea; } .badge { padding: 1px 8px; border-radius: 10px; background: #eef1f6; } .small { font-size: 12px; }
figure.chart { margin: 0 0 1rem; background: #fff; border: 1px solid var(--line); padding: .5rem;
} figcaption { font-size: 12px; color: var(--muted); }
figure.chart svg.plot { display: block; width: 100%; height: auto; }
.legend { margin-right: 1rem; white-space: nowrap; } progress { width: 28rem; max-width: 100%; height: 1rem; vertical-align: middle; }
tr.group th { background: #f6f7fa; text-transform: none; letter-spacing: 0; color: var(--ink); font-size: 13px; }
img.photo { object-fit: cover; margin: 0 4px 4px 0; border: 1px solid var(--line); background: #eef1f6; }
form.inline { display: inline; } input[type=search] { font: inherit; padding: 5px 8px; width: 28rem; max-width: 100%; }
`;
