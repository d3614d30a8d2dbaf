/**
 * A BullMQ queue that seals every job it adds (job-seal.ts): `add`, `addBulk` and the template
 * of `upsertJobScheduler`. Why a queue of its own rather than a step at each enqueue: every
 * path that adds jobs (a run's chunks, in this thread or the enqueue thread, a carrier's split,
 * alert deliveries, schedules) goes through the queues a process opens, so none can be missed.
 * A job without an id is given one here: the id is part of what is signed. A process configured
 * without a key or a service (NoSeal) opens its queues all the same, for reading; adding a job
 * then fails with one line naming the setting.
 */
import { randomUUID } from 'node:crypto';
import { Queue, type ConnectionOptions, type Job, type JobsOptions, type QueueOptions, type RepeatOptions } from 'bullmq';
import { ListingSyncError } from '../shared/errors.js';
import { ErrorCode } from '../shared/error-codes.js';
import { sealData, schedulerJobId, type JobSeal, type NoSeal } from './job-seal.js';

type Data = Record<string, unknown>;
type BulkJob = Parameters<Queue['addBulk']>[0][number];
type SchedulerTemplate = Parameters<Queue['upsertJobScheduler']>[2];

const asObject = (data: unknown): object => (typeof data === 'object' && data !== null ? data : { value: data });

export class SealedQueue extends Queue {
  readonly #seal: JobSeal | NoSeal;
  /** The queue's name as signed: without a cluster's hash tag, so a job's seal holds on either layout. */
  readonly #signedName: string;

  constructor(signedName: string, keyName: string, options: QueueOptions & { connection: ConnectionOptions }, seal: JobSeal | NoSeal) {
    super(keyName, options);
    this.#seal = seal;
    this.#signedName = signedName;
  }

  #sealed(name: string, id: string, data: unknown): Data {
    if ('missing' in this.#seal) throw new ListingSyncError(ErrorCode.CONFIG, `cannot enqueue ${name}: ${this.#seal.missing}`);
    return sealData(this.#seal, this.#signedName, name, id, asObject(data));
  }

  override async add(name: string, data: unknown, opts?: JobsOptions): Promise<Job> {
    const jobId = opts?.jobId ?? randomUUID();
    return await super.add(name, this.#sealed(name, jobId, data), { ...opts, jobId });
  }

  override async addBulk(jobs: BulkJob[]): Promise<Job[]> {
    return await super.addBulk(
      jobs.map((job) => {
        const jobId = job.opts?.jobId ?? randomUUID();
        return { ...job, data: this.#sealed(job.name, jobId, job.data), opts: { ...job.opts, jobId } };
      }),
    );
  }

  override async upsertJobScheduler(
    schedulerId: string,
    repeatOpts: Omit<RepeatOptions, 'key'>,
    template?: SchedulerTemplate,
  ): Promise<Job> {
    const name = template?.name ?? schedulerId;
    return await super.upsertJobScheduler(schedulerId, repeatOpts, {
      ...template,
      name,
      data: this.#sealed(name, schedulerJobId(schedulerId), template?.data ?? {}),
    });
  }
}
