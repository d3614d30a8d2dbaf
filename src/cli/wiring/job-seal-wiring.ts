/** This process's job seal (src/queue/job-seal.ts) from Config: its key and the service it is for. */
import type { Config } from '../../config/config.js';
import { jobKeyOf, jobSealOf, type JobSeal, type JobTarget, type NoSeal } from '../../queue/job-seal.js';
import { webhookSealOf, type WebhookSeal } from '../../domain/health/webhook-seal.js';
import { ErrorCode } from '../../shared/error-codes.js';
import { ListingSyncError } from '../../shared/errors.js';

/** The seal of a process configured with `config`, or why it has none (its queues then refuse to add). */
export function sealingOf(config: Config): JobSeal | NoSeal {
  const { baseUrl, credentials, jobKey } = config.api;
  return jobSealOf({ baseUrl, ...credentials, jobKey });
}

/** The seal a worker checks jobs with; one line naming the setting when it has none. */
export function requireSeal(config: Config): JobSeal {
  const seal = sealingOf(config);
  if ('missing' in seal) throw new ListingSyncError(ErrorCode.CONFIG, `cannot start workers: ${seal.missing}`);
  return seal;
}

/** The service `config` names with its credentials' fingerprint, when it names one (undefined otherwise). */
export function configuredTarget(config: Config): JobTarget | undefined {
  const seal = sealingOf(config);
  return 'missing' in seal ? undefined : seal.target;
}

/** The seal of alert webhooks in Redis, under this process's job key (undefined without one). */
export function webhookSealFor(config: Config): WebhookSeal | undefined {
  const key = jobKeyOf({ ...config.api.credentials, jobKey: config.api.jobKey });
  return key === undefined ? undefined : webhookSealOf(key);
}
