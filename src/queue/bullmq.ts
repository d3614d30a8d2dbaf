/**
 * BullMQ's classes, from one place. Why this module: it used to load bullmq with `require` (the
 * package is CommonJS, and Node lexes each of its re-exported files when ESM imports it, which
 * doubled its load time). The shipped CLI is now one bundle (bundle-loader.ts) with bullmq inside
 * it, so a plain import is both correct and what the bundler needs to see. Types and classes
 * share their names, as in 'bullmq'.
 */
export { DelayedError, Queue, UnrecoverableError, Worker } from 'bullmq';
