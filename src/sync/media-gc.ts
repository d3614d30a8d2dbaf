/**
 * Media gc: removes the stored photos no listing of any chatbot shows any more, once they have
 * been unreferenced for the grace period (default 7 days). Why a grace period: a photo dropped by
 * a feed's mistake comes back with the next run, and a CDN may still serve pages naming it. A photo
 * shown by another chatbot is referenced, so it stays. Run by `listing-sync media gc [--dry-run]`
 * and by the workers' upkeep.
 */
import type { MediaStore } from '../feed/media/media-store.js';
import type { PhotoMemory } from '../store/photo-memory.js';

export const DEFAULT_MEDIA_GRACE_MS = 7 * 24 * 3_600_000;

export interface MediaGcOptions {
  store: MediaStore;
  photos: Pick<PhotoMemory, 'referenced' | 'orphans' | 'markOrphans' | 'forgetObjects'>;
  graceMs?: number;
  /** Say what would be removed; remove and record nothing. */
  dryRun?: boolean;
  now?: () => number;
}

export interface MediaGcResult {
  /** Objects removed (or, dry, that would be). */
  removed: Array<{ key: string; bytes: number }>;
  /** Objects unreferenced but still within the grace period. */
  waiting: number;
  /** Objects some listing shows. */
  referenced: number;
}

export async function mediaGc(options: MediaGcOptions): Promise<MediaGcResult> {
  const now = options.now?.() ?? Date.now();
  const graceMs = options.graceMs ?? DEFAULT_MEDIA_GRACE_MS;
  const referenced = await options.photos.referenced();
  const orphans = await options.photos.orphans();
  const result: MediaGcResult = { removed: [], waiting: 0, referenced: 0 };
  const newlyFound: string[] = [];
  const cleared: string[] = [];
  for await (const object of options.store.list()) {
    if (referenced.has(object.key)) {
      result.referenced += 1;
      if (orphans.has(object.key)) cleared.push(object.key);
      continue;
    }
    // Why also the object's own age: one written just now may be for a listing whose reference is not yet recorded.
    const since = Math.max(orphans.get(object.key) ?? now, object.modifiedMs);
    if (!orphans.has(object.key)) newlyFound.push(object.key);
    if (now - since >= graceMs) result.removed.push({ key: object.key, bytes: object.bytes });
    else result.waiting += 1;
  }
  if (options.dryRun === true) return result;
  for (const { key } of result.removed) await options.store.remove(key);
  const removed = new Set(result.removed.map(({ key }) => key));
  await options.photos.forgetObjects(removed);
  await options.photos.markOrphans(
    newlyFound.filter((key) => !removed.has(key)),
    now,
    [...cleared, ...removed],
  );
  return result;
}
