/**
 * Decides how to read a feed when the user did not say: format from the extension, the HTTP
 * content type or the first non-space character; CSV delimiter from the header line.
 */

export const FEED_FORMATS = ['csv', 'json', 'ndjson'] as const;
export type FeedFormat = (typeof FEED_FORMATS)[number];

const EXTENSION_FORMATS: Readonly<Record<string, FeedFormat>> = {
  '.csv': 'csv',
  '.tsv': 'csv',
  '.tab': 'csv',
  '.txt': 'csv',
  '.json': 'json',
  '.ndjson': 'ndjson',
  '.jsonl': 'ndjson',
};

export type Sniffed = { format: FeedFormat } | { problem: string };

function fromContentType(contentType: string | undefined): FeedFormat | undefined {
  if (contentType === undefined) return undefined;
  if (contentType.includes('ndjson') || contentType.includes('jsonl') || contentType.includes('json-seq')) return 'ndjson';
  if (contentType.includes('json')) return 'json';
  if (contentType.includes('csv') || contentType.includes('tab-separated')) return 'csv';
  return undefined;
}

/** NDJSON when the first line is a whole JSON value and more follows on another line. */
function looksLikeNdjson(sample: string, start: number): boolean {
  const end = sample.indexOf('\n', start);
  if (end < 0) return false;
  try {
    JSON.parse(sample.slice(start, end));
  } catch {
    return false;
  }
  return /\S/.test(sample.slice(end));
}

/** `sample` is the start of the feed decoded leniently (replacement characters allowed). */
export function sniffFormat(extension: string, contentType: string | undefined, sample: string): Sniffed {
  const firstIndex = sample.search(/[^\s\ufeff]/);
  if (firstIndex < 0) return { problem: 'the file is empty' };
  if (sample.includes('\u0000')) return { problem: 'it holds binary data (NUL bytes), not CSV or JSON' };
  const first = sample[firstIndex];
  if (first === '<') return { problem: 'it looks like HTML or XML, not CSV or JSON' };
  const declared = EXTENSION_FORMATS[extension] ?? fromContentType(contentType);
  if (declared !== undefined) return { format: declared };
  if (first === '[') return { format: 'json' };
  if (first === '{') return { format: looksLikeNdjson(sample, firstIndex) ? 'ndjson' : 'json' };
  return { format: 'csv' };
}

const CANDIDATE_DELIMITERS = [',', ';', '\t', '|'] as const;

/** The candidate that occurs most often outside quotes on the header line (',' on a tie or none). */
export function sniffDelimiter(sample: string, extension: string): string {
  if (extension === '.tsv' || extension === '.tab') return '\t';
  const counts = new Map<string, number>();
  let quoted = false;
  for (let i = 0; i < sample.length; i++) {
    const ch = sample[i] ?? '';
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  let best: string = ',';
  let bestCount = 0;
  for (const candidate of CANDIDATE_DELIMITERS) {
    const count = counts.get(candidate) ?? 0;
    if (count > bestCount) {
      best = candidate;
      bestCount = count;
    }
  }
  return best;
}
