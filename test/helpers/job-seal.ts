/**
 * The job seals tests enqueue and work with (src/queue/job-seal.ts), made as a process configured
 * for that service would make them: its base URL and credentials.
 */
import { jobSealOf, type JobSeal } from '../../src/queue/job-seal.js';
import { DEFAULT_SIM_CREDENTIALS } from '../../src/sim/defaults.js';
import type { SimCredentials } from '../../src/sim/types.js';

/** The seal of a process configured for the service at `baseUrl` with `credentials` (default: the simulator's). */
export function sealFor(baseUrl: string, credentials: SimCredentials = DEFAULT_SIM_CREDENTIALS): JobSeal {
  const seal = jobSealOf({ baseUrl, ...credentials });
  if ('missing' in seal) throw new Error(seal.missing);
  return seal;
}

/** A seal for tests that talk to no service (schedules, alerts, queue mechanics). */
export const TEST_SEAL: JobSeal = sealFor('http://127.0.0.1:9/listing-sync-test');
