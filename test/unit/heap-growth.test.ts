import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HEAP_POLICY_MIN_FEED_BYTES, heapPolicyPays } from '../../src/cli/wiring/heap-growth.js';

const dir = mkdtempSync(join(tmpdir(), 'heap-policy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('which sync --work keeps its heap near what is live', () => {
  it('a local feed file from 16 MiB on does, a smaller one keeps V8 own policy', async () => {
    const small = join(dir, 'small.json');
    writeFileSync(small, '[]');
    const large = join(dir, 'large.json');
    writeFileSync(large, '');
    // A sparse file: its size is what counts, not its bytes on disk.
    truncateSync(large, HEAP_POLICY_MIN_FEED_BYTES);
    expect(await heapPolicyPays(small, false)).toBe(false);
    expect(await heapPolicyPays(large, false)).toBe(true);
  });

  it('a feed URL or a replication does (their size is not known up front); a file that is not there is left to the feed reader', async () => {
    expect(await heapPolicyPays('https://feeds.example.com/listings.json', false)).toBe(true);
    expect(await heapPolicyPays(join(dir, 'small.json'), true)).toBe(true);
    expect(await heapPolicyPays(join(dir, 'missing.json'), false)).toBe(false);
  });
});
