/**
 * The check that ends every "through an outage" e2e test: the chatbot holds the feed's listings,
 * the simulator saw none created twice, and the same feed again (a dry run) plans nothing.
 */
import { expect } from 'vitest';
import type { RunningSimulator } from '../../src/sim/server.js';
import { jsonOf, runCli } from './run-cli.js';

export async function expectConverged(
  sim: RunningSimulator,
  chatbot: string,
  rows: number,
  feed: string,
  env: Readonly<Record<string, string>>,
): Promise<void> {
  expect(sim.state.listings(chatbot)).toHaveLength(rows);
  expect(sim.state.duplicateCreates(chatbot)).toEqual([]);
  expect(sim.state.duplicates(chatbot, 'MLSNumber')).toEqual([]);
  const again = await runCli(['sync', '--chatbot', chatbot, '--feed', feed, '--dry-run', '--json'], env);
  expect(again.code, again.stderr).toBe(0);
  expect(jsonOf<{ plan: unknown }>(again).plan).toMatchObject({ create: 0, update: 0, delete: 0 });
}
