/**
 * bench:sync's input files, written as streams: the feed (native-profile JSON array, no
 * SerialNumber, as sync-scenario.ts writeFeedFile writes it) and, for the bare loop, its request
 * bodies (one JSON listing a line). Why streamed: a 1,000,000-listing feed as one string is over
 * V8's string limit (~512 MiB); here only a chunk of listings is in memory at a time.
 */
import { open } from 'node:fs/promises';
import { sampleListing } from '../src/sim/sample-listings.js';

/** Listings generated and written per write call. */
const CHUNK = 1000;

/** Where writeWireFiles writes; either may be left out. */
export interface WireFiles {
  /** The feed: a native-profile JSON array. */
  feedPath?: string;
  /** The bare loop's request bodies: NDJSON. */
  bodiesPath?: string;
}

/** Writes listings 0 … count − 1 of `chatbot` (src/sim/sample-listings.ts) to the files asked for. */
export async function writeWireFiles(files: WireFiles, count: number, chatbot: string): Promise<void> {
  const feed = files.feedPath === undefined ? undefined : await open(files.feedPath, 'w');
  const bodies = files.bodiesPath === undefined ? undefined : await open(files.bodiesPath, 'w');
  try {
    await feed?.write('[\n');
    for (let start = 0; start < count; start += CHUNK) {
      const records: string[] = [];
      const lines: string[] = [];
      for (let i = start; i < Math.min(count, start + CHUNK); i += 1) {
        const listing = sampleListing(i, { SerialNumber: chatbot });
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
