/**
 * How a listing job that travels in a carrier (jobs/write-listings.ts) is named where one id
 * fits: `id>carrier`, in a run's job list and in the key index. Why in the same entry rather
 * than a record of its own: it is written and read with the entry, and removed with it; '>'
 * never occurs in a job id (job-id.ts encodes every character outside [A-Za-z0-9_.-]).
 */

/** A job as listed: its own id, and the queue job carrying it when it travels in a carrier. */
export interface ListedJob {
  id: string;
  carrier?: string;
}

const CARRIER_MARK = '>';

/** The entry that names `job`. */
export function listedEntry(job: string | ListedJob): string {
  if (typeof job === 'string') return job;
  return job.carrier === undefined ? job.id : `${job.id}${CARRIER_MARK}${job.carrier}`;
}

/** The job an entry names. */
export function listedJobOf(entry: string): ListedJob {
  const at = entry.indexOf(CARRIER_MARK);
  return at < 0 ? { id: entry } : { id: entry.slice(0, at), carrier: entry.slice(at + 1) };
}
