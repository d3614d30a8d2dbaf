/**
 * Scheduled syncs as an operator manages them (`listing-sync schedule add|list|remove`, fleet.yaml):
 * stored, listed and removed as BullMQ job schedulers (src/queue/schedules.ts), their cron
 * patterns checked and their next times read the way BullMQ reads them (src/queue/cron.ts).
 */
export { addSchedule, listSchedules, removeSchedule } from '../queue/schedules.js';
export { CRON_EXAMPLE, cronProblem, nextOccurrences } from '../queue/cron.js';
