/**
 * The fleet source a run is shown with (`runs list`, the dashboard's runs page): the one its summary
 * names (a fan-out run), else the chatbot's source in the applied fleet, else none.
 */
import type { Fleet } from '../fleet/fleet-model.js';
import type { RunRecord } from '../store/run-types.js';
import { fleetSourceOf } from './fleet-roster.js';

export function runSourceOf(run: Pick<RunRecord, 'chatbot' | 'summary'>, fleet: Fleet): string | undefined {
  return run.summary?.source ?? fleetSourceOf(fleet, run.chatbot);
}
