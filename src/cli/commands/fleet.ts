/**
 * `listing-sync fleet diff|apply|show`: the installation's schedules, chatbot settings and alerts
 * as code (fleet.yaml, docs/fleets.md). The file is checked whole first, every
 * problem at its line and column, before Redis is read; nothing is changed when one is found.
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { UsageError } from '../../shared/errors.js';
import { planFleet, type FleetChange, type FleetPlan } from '../../fleet/fleet-diff.js';
import { problemLine } from '../../fleet/fleet-problems.js';
import { appliedFleet, applyFleetPlan, currentFleetSide } from '../../sync/fleet-apply.js';
import { fleetDeps } from '../wiring/fleet-wiring.js';
import type { CommandHost, RegisterCommands } from '../host.js';
import { printJson } from '../io.js';
import { fleetFileError, fleetTarget, type FleetTarget } from '../input/fleet-target.js';
import { addRedisOptions, type RedisFlags } from '../wiring/with-queue.js';
import { registerFleetRun } from './fleet-run.js';
import { fleetSequences } from '../../sync/fleet-sequence.js';
import { fleetSequenceLine } from '../output/format-sources.js';

interface FleetFlags extends RedisFlags {
  prune?: boolean;
}

const SIGN = { add: '+', change: '~', remove: '-', keep: '=' } as const;

function changeLine(change: FleetChange): string {
  const fields = change.fields === undefined ? '' : ` (${change.fields.join(', ')})`;
  return `${SIGN[change.action]} ${change.kind} ${change.name}${fields}`;
}

const keptLine = (change: FleetChange): string =>
  `kept ${change.kind} ${change.name}: the file no longer names it (fleet apply --prune removes it; listings are never touched)`;

/** The file checked whole: its target, or a UsageError listing every problem (exit 2). */
async function targetOf(host: CommandHost, file: string, needWebhooks: boolean): Promise<FleetTarget> {
  const text = await readFile(file, 'utf8').catch((thrown: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot read the fleet file ${file} (${thrown.code ?? thrown.message})`);
  });
  // Why loaded here: the YAML library is for the commands that read YAML, not every command's start.
  const { parseFleetText } = await import('../../fleet/fleet-yaml.js');
  const parsed = parseFleetText(text);
  const { target, problems } = await fleetTarget(parsed, { fileDir: dirname(resolve(file)), env: host.io.env, needWebhooks });
  if (problems.length > 0) throw fleetFileError(file, problems, problemLine);
  return target;
}

function report(host: CommandHost, json: boolean, plan: FleetPlan, notes: readonly string[], text: { none: string; changed: string[] }) {
  if (json) {
    printJson(host.io, { changes: plan.changes, kept: plan.kept, notes });
    return;
  }
  const lines = [
    ...(plan.changes.length === 0 ? [text.none] : text.changed),
    ...plan.kept.map(keptLine),
    ...notes.map((note) => `note: ${note}`),
  ];
  host.io.stdout.write(`${lines.join('\n')}\n`);
}

function counts(plan: FleetPlan): string {
  const of = (action: FleetChange['action']): number => plan.changes.filter((change) => change.action === action).length;
  return `${of('add')} added, ${of('change')} changed, ${of('remove')} removed`;
}

export const registerFleetCommands: RegisterCommands = (program: Command, host: CommandHost) => {
  const fleet = program
    .command('fleet')
    .description('configuration as code: sources, chatbots and alerts declared in a fleet.yaml (docs/fleets.md)');
  addRedisOptions(
    fleet
      .command('diff')
      .argument('<file>', 'the fleet file (fleet.yaml)')
      .description('what `fleet apply` would add, change or remove (changes nothing)')
      .option('--prune', 'show what apply --prune would remove', false),
  ).action((file: string, flags: FleetFlags) =>
    host.run(async () => {
      const target = await targetOf(host, file, false);
      const deps = await fleetDeps(host, flags);
      const plan = planFleet(await currentFleetSide(deps), target.side, { prune: flags.prune === true });
      report(host, flags.json === true, plan, target.notes, {
        none: `no changes: the installation matches ${file}`,
        changed: plan.changes.map(changeLine),
      });
    }),
  );
  addRedisOptions(
    fleet
      .command('apply')
      .argument('<file>', 'the fleet file (fleet.yaml)')
      .description('make the schedules, chatbot settings and alerts match the file')
      .option(
        '--prune',
        'also remove what the fleet owns and the file no longer names (configuration and schedules, never listings)',
        false,
      ),
  ).action((file: string, flags: FleetFlags) =>
    host.run(async () => {
      const target = await targetOf(host, file, true);
      const deps = await fleetDeps(host, flags);
      const plan = planFleet(await currentFleetSide(deps), target.side, { prune: flags.prune === true });
      await applyFleetPlan(deps, plan, { schedules: target.side.schedules, alertConfigs: target.alertConfigs });
      report(host, flags.json === true, plan, target.notes, {
        none: `nothing changed: the installation already matches ${file}`,
        changed: [...plan.changes.map(changeLine), `fleet applied: ${counts(plan)}`],
      });
    }),
  );
  addRedisOptions(fleet.command('show').description('the applied fleet, as a fleet file (`fleet diff` of it finds no changes)')).action(
    (flags: RedisFlags) =>
      host.run(async () => {
        const deps = await fleetDeps(host, flags);
        const { fleet: applied, applied: exists } = await appliedFleet(deps);
        const events = await fleetSequences(applied, deps.feedSources);
        if (flags.json === true) printJson(host.io, { applied: exists, fleet: applied, ...(events.length === 0 ? {} : { events }) });
        else {
          const { fleetYaml } = await import('../../fleet/fleet-show.js');
          // Comments, so that `fleet diff` of the output still finds no changes.
          host.io.stdout.write(`${fleetYaml(applied, exists)}${events.map((shown) => `# ${fleetSequenceLine(shown)}\n`).join('')}`);
        }
      }),
  );
  registerFleetRun(fleet, host);
};
