/**
 * HTML building with escaping by default. Feed values (addresses, MLS numbers, reasons) are
 * outside data: every interpolated value is escaped unless it is already a SafeHtml produced by
 * this module, so a forgotten escape is impossible rather than merely unlikely.
 */

/** A fragment of HTML that is known to be safe (built by `html` or `raw`). */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

/** Escapes text for use in element content and in quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (char) => ENTITIES[char] ?? char);
}

type Interpolation = SafeHtml | string | number | boolean | undefined | null | readonly Interpolation[];

function render(value: Interpolation): string {
  if (value === undefined || value === null || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map((item: Interpolation) => render(item)).join('');
  return escapeHtml(String(value));
}

/** Tagged template: literal parts are trusted markup, interpolations are escaped. */
export function html(strings: TemplateStringsArray, ...values: readonly Interpolation[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** Trusted markup from this codebase (never feed data). */
export function raw(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

/** ISO-like UTC time for an epoch-ms value ('' when absent). */
export function formatTime(epochMs: number | undefined): string {
  if (epochMs === undefined || !Number.isFinite(epochMs) || epochMs <= 0) return '';
  return new Date(epochMs)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, 'Z');
}

/** "1m 05s" style duration between two epoch-ms values ('running' when unfinished). */
export function formatDuration(startMs: number, endMs: number | undefined): string {
  if (endMs === undefined) return 'running';
  const seconds = Math.max(0, Math.round((endMs - startMs) / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}

/** Reasons (each a sentence, with or without its full stop) joined as sentences: "A. B.", never "A.; B". */
export function sentences(reasons: readonly string[]): string {
  return reasons.map((reason) => reason.trim().replace(/[.;]+$/, '') + '.').join(' ');
}
