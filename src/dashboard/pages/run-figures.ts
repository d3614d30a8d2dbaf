/**
 * A run summary's figures (feed, remote, replication) as labelled values in words: "Defaults
 * filled: LotArea 252 listings", never `filledDefaults {"LotArea":252}`. Known fields get their
 * label and unit; a field this version does not know still reads as words (its name split at
 * capitals, its value flattened), so an older or newer record never shows JSON.
 */
import { html, type SafeHtml } from '../html.js';

/** How one field reads: its label, and optionally how its value is said. */
interface Figure {
  label: string;
  say?: (value: unknown) => string;
}

const count = (value: unknown): string => (typeof value === 'number' ? value.toLocaleString('en-US') : words(value));

/** "LotArea 252 listings, YearBuilt 3 listings" for a record of counts. */
const perField =
  (unit: string) =>
  (value: unknown): string =>
    isRecord(value)
      ? Object.entries(value)
          .map(([name, n]) => `${name} ${count(n)} ${unit}`)
          .join(', ')
      : words(value);

const yesNo = (value: unknown): string => (value === true ? 'yes' : value === false ? 'no' : words(value));

/** Bytes in the largest unit that keeps them above 1, with the exact count. */
export function formatBytes(value: unknown): string {
  if (typeof value !== 'number') return words(value);
  const units = ['bytes', 'KiB', 'MiB', 'GiB'];
  let size = value;
  let unit = 0;
  while (size >= 1024 && unit < units.length - 1) {
    size /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${count(value)} bytes` : `${size.toFixed(1)} ${units[unit] ?? ''} (${count(value)} bytes)`;
}

const FEED: Readonly<Record<string, Figure>> = {
  source: { label: 'Source' },
  profile: { label: 'Profile' },
  rows: { label: 'Rows read', say: count },
  valid: { label: 'Valid rows', say: count },
  rejected: { label: 'Rejected rows', say: count },
  excluded: { label: 'Excluded by filter', say: count },
  duplicates: { label: 'Duplicate keys', say: count },
  filledDefaults: { label: 'Defaults filled', say: perField('listings') },
};

const REMOTE: Readonly<Record<string, Figure>> = {
  listings: { label: 'Listings read', say: count },
  virtualCount: { label: 'Listings the service counts', say: count },
  complete: { label: 'Read completely', say: yesNo },
  incompleteReasons: { label: 'Why incomplete' },
  duplicates: { label: 'Duplicate keys', say: count },
  unkeyed: { label: 'Listings without a key', say: count },
};

const sweep = (value: unknown): string => {
  if (!isRecord(value)) return words(value);
  const deleted = typeof value.deleted === 'number' ? `, ${count(value.deleted)} deleted as gone` : '';
  return value.complete === true ? `complete${deleted}` : 'incomplete: nothing deleted by absence';
};

const REPLICATION: Readonly<Record<string, Figure>> = {
  status: { label: 'Pull' },
  recordsPulled: { label: 'Records pulled', say: count },
  requests: { label: 'Requests', say: count },
  bytes: { label: 'Data received', say: formatBytes },
  since: { label: 'Pulled changes since' },
  watermark: { label: 'Watermark now' },
  sweep: { label: 'Key sweep', say: sweep },
  halted: { label: 'Stopped early' },
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Any value in words: lists joined, records as "name value", nothing for an empty list or record. */
export function words(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return value.toLocaleString('en-US');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (Array.isArray(value))
    return value
      .map(words)
      .filter((item) => item !== '')
      .join('; ');
  if (isRecord(value))
    return Object.entries(value)
      .map(([name, item]) => [labelOf(name).toLowerCase(), words(item)] as const)
      .filter(([, item]) => item !== '')
      .map(([name, item]) => `${name} ${item}`)
      .join(', ');
  return String(value);
}

/** A field name as a label: "virtualCount" → "Virtual count". */
export function labelOf(name: string): string {
  const spaced = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** The fields as a definition list, known ones first in their order; empty values are left out. */
function figures(values: Readonly<Record<string, unknown>> | undefined, known: Readonly<Record<string, Figure>>): SafeHtml {
  const entries = Object.entries(values ?? {});
  const order = Object.keys(known);
  const rank = (name: string): number => (order.includes(name) ? order.indexOf(name) : order.length);
  const rows = entries
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([name, value]) => {
      const figure = known[name];
      return { name, label: figure?.label ?? labelOf(name), text: (figure?.say ?? words)(value) };
    })
    .filter((row) => row.text !== '');
  if (rows.length === 0) return html`<p class="muted">Not recorded.</p>`;
  return html`<dl>${rows.map((row) => html`<dt>${row.label}</dt><dd data-field="${row.name}">${row.text}</dd>`)}</dl>`;
}

export function feedFigures(feed: Readonly<Record<string, unknown>> | undefined): SafeHtml {
  return figures(feed, FEED);
}

export function remoteFigures(remote: Readonly<Record<string, unknown>> | undefined): SafeHtml {
  return figures(remote, REMOTE);
}

/** A `--replicate` run's pull as a card; nothing for other runs. Its photos have a card of their own (run-photos.ts). */
export function replicationCard(replication: Readonly<Record<string, unknown>> | undefined): SafeHtml {
  if (replication === undefined) return html``;
  const pull = Object.fromEntries(Object.entries(replication).filter(([name]) => name !== 'photos'));
  return html`<div class="card" id="replication"><h2>Replication</h2>${figures(pull, REPLICATION)}</div>`;
}
