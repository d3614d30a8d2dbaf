/** The feed (native JSON, no SerialNumber) and the bare loop's bodies (NDJSON). Why streamed: 1M listings exceed V8's string limit. */
import { open } from 'node:fs/promises';
import { sampleListing } from '../src/sim/sample-listings.js';

/** Writes listings from … from + count − 1 of `chatbot` (src/sim/sample-listings.ts) to the files asked for. */
export async function writeWireFiles(
  files: { feedPath?: string; bodiesPath?: string },
  count: number,
  chatbot: string,
  from = 0,
): Promise<void> {
  const feed = files.feedPath === undefined ? undefined : await open(files.feedPath, 'w');
  const bodies = files.bodiesPath === undefined ? undefined : await open(files.bodiesPath, 'w');
  try {
    await feed?.write('[\n');
    for (let start = 0; start < count; start += 1000) {
      const records: string[] = [];
      const lines: string[] = [];
      for (let i = start; i < Math.min(count, start + 1000); i += 1) {
        const listing = sampleListing(from + i, { SerialNumber: chatbot });
        const { SerialNumber: _serial, ...fields } = listing;
        if (feed !== undefined) records.push(JSON.stringify(fields));
        if (bodies !== undefined) lines.push(JSON.stringify(listing));
      }
      await feed?.write(`${start === 0 ? '' : ',\n'}${records.join(',\n')}`);
      await bodies?.write(`${lines.join('\n')}\n`);
    }
    await feed?.write('\n]\n');
  } finally {
    await feed?.close();
    await bodies?.close();
  }
}
