/** What the health page shows of the services the waiting jobs are for (src/queue/waiting-targets.ts). */

/** A service waiting jobs are for: its URL and credentials fingerprint, jobs of the sample, one of their runs. */
export interface JobTargetView {
  target: string;
  jobs: number;
  run: string;
}

/** The part of the health data that reads them (a sample of the waiting jobs), when known. */
export interface JobTargetsData {
  jobTargets?(): Promise<JobTargetView[]>;
}
