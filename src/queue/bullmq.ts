/**
 * BullMQ's classes, loaded with `require`. Why: the bullmq package is CommonJS whose index
 * re-exports every one of its modules; imported from ESM, Node first lexes each of those files
 * to learn the names it exports, which doubles bullmq's load time (measured 205 ms imported,
 * 102 ms required) on every command's start, `sync --work` included. Both ways give the same
 * module instance (one require cache), so `instanceof` checks inside BullMQ hold. Types are
 * imported from 'bullmq' as usual; each class here is also a type of the same name.
 */
import { createRequire } from 'node:module';
import type * as BullMQ from 'bullmq';

const bullmq = createRequire(import.meta.url)('bullmq') as typeof BullMQ;

export const Queue = bullmq.Queue;
export type Queue = BullMQ.Queue;
export const Worker = bullmq.Worker;
export type Worker = BullMQ.Worker;
export const DelayedError = bullmq.DelayedError;
export type DelayedError = BullMQ.DelayedError;
export const UnrecoverableError = bullmq.UnrecoverableError;
export type UnrecoverableError = BullMQ.UnrecoverableError;
