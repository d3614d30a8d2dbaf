/**
 * Failed write jobs as an operator handles them (`listing-sync jobs failed|retry|find`): listed,
 * found by listing key and retried in the queue (src/queue/failed-jobs.ts owns how).
 */
export { findKeyJobs, listFailedJobs, retryJobs } from '../queue/failed-jobs.js';
