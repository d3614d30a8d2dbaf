/**
 * An installation with a fleet, made through the built CLI against the simulator and a real
 * Redis: `fleet apply` of a fleet.yaml (a RESO source with two filtered chatbots, a Redfin file
 * with one chatbot), then one sync of the file's chatbot and one of a chatbot outside the fleet,
 * so the displays have a fleet run and a non-fleet run to show.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { RunningSimulator } from '../../src/sim/server.js';
import { jsonOf, runCli } from './run-cli.js';
import { cleanPrefix, uniquePrefix } from './redis.js';
import { cliEnv, startTestSim } from './sim.js';

const EXPORT = resolve(import.meta.dirname, '../../fixtures/redfin/export-chicago-shaped.csv');

export const FLEET_YAML = (csv: string): string => `sources:
  mred:
    feed: https://mls.example/odata/Property
    profile: reso
    replicate: true
    budget: mls-grid
    schedule: { cron: "*/30 * * * *", tz: America/Chicago }
  acme-file:
    feed: ${csv}
    profile: redfin
    schedule: { cron: "0 2 * * *", tz: America/New_York }
chatbots:
  acme-bot:
    source: mred
    where: { ListOfficeMlsId: [ACME1, ACME2] }
  beta-bot:
    source: mred
    where: { City: Evanston, ListPrice: { gte: 200000 } }
  gamma-bot:
    source: acme-file
`;

export interface FleetInstallation {
  prefix: string;
  env: Record<string, string>;
  /** The runs of gamma-bot (on acme-file) and of solo-bot (outside the fleet). */
  gammaRun: string;
  soloRun: string;
  close(passed: boolean): Promise<void>;
}

export async function installFleet(redisUrl: string, label: string): Promise<FleetInstallation> {
  const sim: RunningSimulator = await startTestSim({ chatbots: ['gamma-bot', 'solo-bot'] });
  const prefix = uniquePrefix(label);
  const dir = mkdtempSync(join(tmpdir(), 'ls-fleet-display-'));
  const close = async (passed: boolean): Promise<void> => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
    if (passed) await cleanPrefix(redisUrl, prefix);
  };
  try {
    const env = cliEnv(sim, redisUrl, prefix);
    // Five listings keep the syncs short.
    const csv = join(dir, 'acme.csv');
    writeFileSync(csv, `${readFileSync(EXPORT, 'utf8').split('\n').slice(0, 6).join('\n')}\n`);
    const fleetFile = join(dir, 'fleet.yaml');
    writeFileSync(fleetFile, FLEET_YAML(csv));
    const applied = await runCli(['fleet', 'apply', fleetFile], env);
    if (applied.code !== 0) throw new Error(`fleet apply failed (${applied.code}): ${applied.stderr}`);
    const sync = async (chatbot: string): Promise<string> => {
      const run = await runCli(['sync', '--chatbot', chatbot, '--feed', csv, '--profile', 'redfin', '--work', '--json'], env, 120_000);
      if (run.code !== 0) throw new Error(`sync of ${chatbot} failed (${run.code}): ${run.stderr}`);
      return jsonOf<{ runId: string }>(run).runId;
    };
    const gammaRun = await sync('gamma-bot');
    const soloRun = await sync('solo-bot');
    return { prefix, env, gammaRun, soloRun, close };
  } catch (thrown) {
    await close(false);
    throw thrown;
  }
}
