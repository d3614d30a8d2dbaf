/**
 * A stacked bar chart as server-rendered SVG (no script, no front-end build; the pages' CSP allows
 * neither inline scripts nor inline styles, so colours are presentation attributes). Optionally a
 * line over the bars on its own right-hand axis (a run's duration over its counts). Every bar
 * group carries its numbers as data attributes and a <title>, so people hovering and tests reading
 * the chart see the same values.
 */
import { html, raw, type SafeHtml } from '../html.js';

export interface Series {
  key: string;
  label: string;
  /** A CSS colour (a presentation attribute). */
  color: string;
}

export interface Bar {
  /** Identifies the bar (a run id, a day), kept in `data-id`. */
  id: string;
  /** Shown under the bar (every few bars when they are many). */
  label: string;
  /** Value per series key; missing keys are 0. */
  values: Readonly<Record<string, number>>;
  /** The line's value at this bar (e.g. seconds), when the chart has a line. */
  line?: number;
  /** Where the bar links to (e.g. its run page). */
  href?: string;
}

export interface StackedBarChart {
  id: string;
  title: string;
  series: readonly Series[];
  bars: readonly Bar[];
  line?: { label: string; color: string; unit: string };
  width?: number;
  height?: number;
}

const MARGIN = { top: 16, right: 56, bottom: 40, left: 48 };

/**
 * The least height a non-zero segment is drawn with (in the chart's units, about pixels). Why: on
 * a shared scale a run's 12 failures beside another's 500 creates would be under a pixel, and an
 * operator scanning for failures must see that there are some; the exact value is in the bar's
 * title and data attributes.
 */
export const MIN_SEGMENT_HEIGHT = 4;

/** A round axis maximum ≥ value: 1, 2, 5 × a power of ten. */
export function niceMax(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

function fmt(n: number): string {
  if (Number.isInteger(n)) return String(n);
  return String(Number(n.toFixed(Math.abs(n) < 1 ? 2 : 1)));
}

function axisTicks(max: number, x: number, height: number, anchor: 'end' | 'start', suffix = ''): SafeHtml[] {
  return [0, 0.5, 1].map((share) => {
    const y = MARGIN.top + height - share * height;
    return html`<text x="${x}" y="${y + 4}" text-anchor="${anchor}" font-size="11" fill="#5b6578">${fmt(max * share)}${suffix}</text>
<line x1="${MARGIN.left}" x2="${MARGIN.left + 1}" y1="${y}" y2="${y}" stroke="#d9dee7"/>`;
  });
}

/** The chart as an inline <svg> (a legend included). Empty charts say so instead. */
export function stackedBarChart(chart: StackedBarChart): SafeHtml {
  // The drawing's own units: the page scales it to its panel's width (the stylesheet's svg.plot).
  const width = chart.width ?? 1200;
  const height = chart.height ?? 320;
  const plotW = width - MARGIN.left - MARGIN.right;
  const plotH = height - MARGIN.top - MARGIN.bottom;
  if (chart.bars.length === 0) return html`<p class="muted" id="${chart.id}-empty">Nothing to chart yet.</p>`;
  const totals = chart.bars.map((bar) => chart.series.reduce((sum, s) => sum + (bar.values[s.key] ?? 0), 0));
  const maxY = niceMax(Math.max(...totals));
  const lineValues = chart.bars.map((bar) => bar.line ?? 0);
  const maxLine = niceMax(Math.max(...lineValues));
  const band = plotW / chart.bars.length;
  const barW = Math.max(1, Math.min(40, band * 0.7));
  const labelEvery = Math.max(1, Math.ceil(chart.bars.length / 10));
  const groups = chart.bars.map((bar, i) => {
    const x = MARGIN.left + i * band + (band - barW) / 2;
    let y = MARGIN.top + plotH;
    const rects = chart.series.map((s) => {
      const value = bar.values[s.key] ?? 0;
      if (value <= 0) return html``;
      const h = Math.max(MIN_SEGMENT_HEIGHT, (value / maxY) * plotH);
      y -= h;
      return html`<rect class="segment" data-series="${s.key}" data-value="${value}" x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${barW.toFixed(1)}" height="${h.toFixed(1)}" fill="${s.color}"><title>${bar.id} · ${s.label}: ${value}</title></rect>`;
    });
    const data = chart.series.map((s) => raw(` data-${s.key}="${String(bar.values[s.key] ?? 0)}"`));
    const label =
      i % labelEvery === 0
        ? html`<text x="${(x + barW / 2).toFixed(1)}" y="${MARGIN.top + plotH + 16}" text-anchor="middle" font-size="10" fill="#5b6578">${bar.label}</text>`
        : html``;
    const body = html`<g class="bar" data-id="${bar.id}"${data}${bar.line === undefined ? '' : raw(` data-line="${fmt(bar.line)}"`)}>${rects}${label}</g>`;
    return bar.href === undefined ? body : html`<a href="${bar.href}">${body}</a>`;
  });
  let line = html``;
  if (chart.line !== undefined) {
    const points = chart.bars.map((bar, i) => ({
      x: MARGIN.left + i * band + band / 2,
      y: MARGIN.top + plotH - ((bar.line ?? 0) / maxLine) * plotH,
      bar,
    }));
    const path = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' ');
    const color = chart.line.color;
    line = html`<path class="line" d="${path}" fill="none" stroke="${color}" stroke-width="2"/>
${points.map((p) => html`<circle cx="${p.x.toFixed(1)}" cy="${p.y.toFixed(1)}" r="3" fill="${color}"><title>${p.bar.id} · ${chart.line?.label ?? ''}: ${fmt(p.bar.line ?? 0)} ${chart.line?.unit ?? ''}</title></circle>`)}
${axisTicks(maxLine, width - MARGIN.right + 6, plotH, 'start', chart.line.unit)}`;
  }
  const legend = [
    ...chart.series.map((s) => ({ label: s.label, color: s.color })),
    ...(chart.line ? [{ label: chart.line.label, color: chart.line.color }] : []),
  ];
  return html`<figure class="chart">
<svg id="${chart.id}" class="plot" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}"
  preserveAspectRatio="xMidYMid meet" role="img" aria-label="${chart.title}">
<title>${chart.title}</title>
<rect x="0" y="0" width="${width}" height="${height}" fill="#ffffff"/>
<line x1="${MARGIN.left}" x2="${width - MARGIN.right}" y1="${MARGIN.top + plotH}" y2="${MARGIN.top + plotH}" stroke="#5b6578"/>
${axisTicks(maxY, MARGIN.left - 6, plotH, 'end')}
${groups}
${line}
</svg>
<figcaption>${legend.map((item) => html`<span class="legend"><svg width="10" height="10" aria-hidden="true"><rect width="10" height="10" fill="${item.color}"/></svg> ${item.label}</span>`)}</figcaption>
</figure>`;
}
