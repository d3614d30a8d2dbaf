/** A plan's deletes → delete-listings jobs: batches of one KeyType, at most a batch size each. */
import { jobId } from '../../src/domain/job-id.js';
import type { Plan, PlannedDelete } from '../../src/domain/plan.js';
import type { JobSpec } from './job-spec.js';

/** The name of the delete kind (delete-listings.ts DELETE_LISTINGS). */
export const DELETE_LISTINGS = 'delete-listings';

function deleteBatches(
  deletes: readonly PlannedDelete[],
  batchSize: number,
): Array<{ keyType: PlannedDelete['keyType']; items: PlannedDelete[] }> {
  const byType = new Map<PlannedDelete['keyType'], PlannedDelete[]>();
  for (const planned of deletes) {
    const ofType = byType.get(planned.keyType);
    if (ofType === undefined) byType.set(planned.keyType, [planned]);
    else ofType.push(planned);
  }
  const batches: Array<{ keyType: PlannedDelete['keyType']; items: PlannedDelete[] }> = [];
  for (const [keyType, items] of byType) {
    for (let i = 0; i < items.length; i += batchSize) batches.push({ keyType, items: items.slice(i, i + batchSize) });
  }
  return batches;
}

/** How many delete jobs `plan` has, without building them. */
export function deleteJobCount(plan: Plan, batchSize: number): number {
  const byType = new Map<PlannedDelete['keyType'], number>();
  for (const planned of plan.deletes) byType.set(planned.keyType, (byType.get(planned.keyType) ?? 0) + 1);
  let batches = 0;
  for (const count of byType.values()) batches += Math.ceil(count / Math.max(1, batchSize));
  return batches;
}

/** The delete jobs of `plan`, in order. */
export function* deleteJobSpecs(plan: Plan, runId: string, batchSize: number): Generator<JobSpec> {
  const { chatbot, keyType } = plan;
  for (const batch of deleteBatches(plan.deletes, Math.max(1, batchSize))) {
    const keys = batch.items.map((d) => d.key);
    const data = {
      runId,
      chatbot,
      keyType,
      deleteKeyType: batch.keyType,
      keys,
      ledgerKeys: batch.items.filter((d) => d.reason === 'gone').map((d) => d.listingKey),
    };
    // Why the first key and the count name the batch: the same plan gives the same batches, so
    // the same ids (an enqueue repeated after a crash adds nothing).
    const batchKey = `${keys[0] ?? ''}+${keys.length}`;
    yield {
      name: DELETE_LISTINGS,
      id: jobId({ kind: 'delete', chatbot, keyType: batch.keyType, key: batchKey, runId }),
      data,
      touches: [...new Set(batch.items.map((d) => d.listingKey))],
    };
  }
}
