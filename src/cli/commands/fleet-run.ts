/**
 * `listing-sync fleet run SOURCE [--work] [--dry-run] [--json]`: the applied fleet's source read
 * (or pulled) once and synced to every chatbot on it, each with its own run, guard, lease and
 * result (src/sync/fleet-run.ts). The command exits with the worst of the chatbots' exit codes.
 */
import { tmpdir } from 'node:os';
import type { Command } from 'commander';
import type { ConfigFlags } from '../../config/config.js';
import type { Fleet } from '../../fleet/fleet-model.js';
import { errorCode, ListingSyncError, UsageError } from '../../shared/errors.js';
import { appliedFleet } from '../../sync/fleet-apply.js';
import { runFleetSource, type FleetRunOutcome } from '../../sync/fleet-run.js';
import { resultOf, syncVerdict } from '../../sync/run-verdict.js';
import type { SyncRequest } from '../../sync/sync-request.js';
import { EXIT, exitCodeFor, exitCodeOfVerdict, type ExitCode } from '../exit-codes.js';
import type { CommandHost } from '../host.js';
import { printJson } from '../io.js';
import { fanOutRequest, fleetSyncRequest } from '../input/fleet-requests.js';
import { addSharedFlags, WORKER_LIMIT_FLAGS } from '../input/shared-flags.js';
import { fleetRunText, type FleetRunLine } from '../output/format-fleet-run.js';
import { createProgressBars } from '../output/progress.js';
import { fleetRecordsOf } from '../wiring/fleet-wiring.js';
import { syncDeps } from '../wiring/queue-wiring.js';
import { announceRun } from '../wiring/run-alerts.js';
import { waitForRunInCli } from '../wiring/run-waiting.js';
import { idleHints, openSyncSession, type SyncSession } from '../wiring/sync-session.js';

interface FleetRunFlags extends ConfigFlags {
  work?: boolean;
  dryRun?: boolean;
  json?: boolean;
}

/**
 * Why this order (usage, failed, refused last of the bad ones below usage): bad usage needs the
 * file fixed before anything can work; a refusal needs a person; a failed run may succeed next time.
 */
const SEVERITY: Readonly<Record<ExitCode, number>> = { 0: 0, 1: 1, 3: 2, 2: 3 };

/** The worst of the chatbots' exit codes (0 when there are none). */
export function worstExitCode(codes: readonly ExitCode[]): ExitCode {
  return codes.reduce<ExitCode>((worst, code) => (SEVERITY[code] > SEVERITY[worst] ? code : worst), EXIT.ok);
}

/** The sync request of each chatbot on `name`, as its schedule would hold it, with its where and the source's name. */
function requestsOf(fleet: Fleet, name: string, dryRun: boolean): SyncRequest[] {
  const source = fleet.sources[name];
  const names = Object.keys(fleet.sources).sort();
  if (source === undefined)
    throw new UsageError(
      `the applied fleet has no source '${name}' (its sources: ${names.join(', ') || 'none'}); ` +
        'name one of them, or add it to the fleet file and run `listing-sync fleet apply FILE`',
    );
  const chatbots = Object.entries(fleet.chatbots)
    .filter(([, chatbot]) => chatbot.source === name)
    .sort(([a], [b]) => a.localeCompare(b));
  if (chatbots.length === 0)
    throw new UsageError(`no chatbot of the applied fleet is on source '${name}'; give one 'source: ${name}' and apply the file`);
  return chatbots.map(([chatbot, settings]) => {
    const outcome = fleetSyncRequest({ source: name, chatbot }, source, settings);
    if (outcome.request === undefined)
      throw new ListingSyncError(
        'INVALID_INPUT',
        `the applied settings of chatbot ${chatbot} are not valid for this version ` +
          `(${outcome.problems.map((p) => `${p.path.join('.')}: ${p.message}`).join('; ')}); apply the fleet file again`,
      );
    return { ...fanOutRequest(outcome.request, name, settings), dryRun, trigger: 'cli' };
  });
}

/** The exit code one chatbot's sync earned: its error's, its verdict's, and 1 for a pull the budget or the server cut short. */
function exitOf(outcome: FleetRunOutcome, summaryCode: (summary: NonNullable<FleetRunLine['summary']>) => ExitCode): ExitCode {
  if ('error' in outcome) return exitCodeFor(errorCode(outcome.error));
  const code = summaryCode(outcome.result.summary);
  // Why 1 although what was received is applied: the pull is not complete, and a scheduler must see it (as `sync --replicate`).
  const status = outcome.result.replication?.status;
  return (status === 'budget-exhausted' || status === 'incomplete') && code === EXIT.ok ? EXIT.failed : code;
}

function lineOf(outcome: FleetRunOutcome): FleetRunLine {
  if ('error' in outcome) return { chatbot: outcome.chatbot, exitCode: exitOf(outcome, () => EXIT.ok), error: outcome.error.message };
  const { summary, replication } = outcome.result;
  return {
    chatbot: outcome.chatbot,
    runId: summary.runId,
    exitCode: exitOf(outcome, (s) => exitCodeOfVerdict(syncVerdict(s))),
    summary,
    ...(replication === undefined ? {} : { replication }),
    ...(replication?.halted === undefined ? {} : { halted: `the pull stopped early: ${replication.halted}; nothing was deleted` }),
  };
}

/** With --work: waits for the chatbot's run (this process's workers work every run's jobs meanwhile), then its result counts. */
async function waitFor(host: CommandHost, session: SyncSession, outcome: FleetRunOutcome, json: boolean): Promise<void> {
  if ('error' in outcome) return;
  const { summary } = outcome.result;
  if (summary.dryRun || !summary.guard.ok || summary.jobs === undefined) return;
  const bars = createProgressBars(host.io, json, session.logger);
  try {
    const { counts, status } = await waitForRunInCli({
      store: session.ctx.store,
      runId: summary.runId,
      chatbot: summary.chatbot,
      bars,
      logger: session.logger,
      signal: session.signal,
      ...(session.workers ? { workers: session.workers } : {}),
      ...idleHints(session),
    });
    summary.result = resultOf(counts);
    if (status !== undefined) summary.status = status;
    summary.finishedAt = new Date().toISOString();
  } finally {
    await bars.stop();
  }
}

async function executeFleetRun(host: CommandHost, sourceName: string, flags: FleetRunFlags): Promise<ExitCode> {
  const dryRun = flags.dryRun === true;
  const work = flags.work === true && !dryRun;
  const json = flags.json === true;
  const session = await openSyncSession(host.io, flags, work);
  const { fleet } = await appliedFleet(fleetRecordsOf(session.ctx, session.config));
  const requests = requestsOf(fleet, sourceName, dryRun);
  const deps = { ...syncDeps(session.api, session.ctx, session.config, session.logger), signal: session.signal };
  const ran = await runFleetSource(deps, requests, { sweep: fleet.sources[sourceName]?.sweep === true, spoolDir: tmpdir() });
  if (work) for (const outcome of ran.outcomes) await waitFor(host, session, outcome, json);
  if (!dryRun)
    for (const outcome of ran.outcomes)
      if ('result' in outcome) await announceRun(session, outcome.chatbot, outcome.result.summary.runId, work);
  const lines = ran.outcomes.map(lineOf);
  const code = worstExitCode(lines.map((line) => line.exitCode));
  if (json) printJson(host.io, { source: sourceName, pull: ran.pull ?? null, chatbots: lines, exitCode: code });
  else host.io.stdout.write(fleetRunText(sourceName, ran.pull, lines, code));
  for (const line of lines) if (line.error !== undefined) host.io.stderr.write(`listing-sync: ${line.chatbot}: ${line.error}\n`);
  return code;
}

/** Adds `fleet run` under the `fleet` command. */
export function registerFleetRun(fleet: Command, host: CommandHost): void {
  const run = fleet
    .command('run')
    .argument('<source>', 'a source of the applied fleet (fleet apply FILE)')
    .description('read or pull the source once and sync every chatbot on it, each over its where (its own run, guard and lease)')
    .option('--dry-run', 'plan and report only: nothing is enqueued or sent, no watermark moves', false)
    .option('--work', "also run workers in this process and wait for every chatbot's run");
  addSharedFlags(run, ['json', 'apiBaseUrl', 'redisUrl', 'redisClusterNodes', 'prefix'], {
    json: 'the source, its pull and every chatbot',
  });
  addSharedFlags(run, ['feedTimeout']);
  addSharedFlags(run, WORKER_LIMIT_FLAGS, { when: 'with --work' });
  addSharedFlags(run, ['logLevel']).action((source: string, flags: FleetRunFlags) => host.run(() => executeFleetRun(host, source, flags)));
}
