/**
 * `runs resume --work` right after a `sync --work` was SIGKILLed: the waiting jobs are worked at
 * once, the jobs the dead process held wait for its locks and key claims, and while only those
 * are left the command says so (held by another process, or one that stopped), not "is Redis
 * answering? is the queue paused?", which sent operators looking at the wrong thing. The run
 * then finishes with every listing once and zero duplicate creates (after one more sync when the
 * crash came before every listed job was added: those are recorded as failed, never sent).
 */
import { describe, expect, it } from 'vitest';
import { linesSaying, stackTraceLines, startCli } from '../helpers/cli-process.js';
import { expectConverged } from '../helpers/converged.js';
import { feedScenarioPerTest } from '../helpers/feed-scenario.js';
import { CRASH_RECOVERY_ENV, cliEnv } from '../helpers/sim.js';
import { jsonOf, runCli } from '../helpers/run-cli.js';

const BOT = 'bot-resume-crash';
const ROWS = 300;
const scenarios = feedScenarioPerTest('resume-crash');

describe('runs resume --work after a crash of sync --work', () => {
  it("says the last jobs are held by a process that stopped, not 'is Redis answering?', and finishes with zero duplicate creates", async () => {
    const { sim: s, redisUrl, prefix, feed } = await scenarios.start({ chatbot: BOT, rows: ROWS, seed: 5, latencyMs: 40 });
    // Short client timeouts: the dead process's key claims then wait 8 s instead of 70.
    const env = cliEnv(s, redisUrl, prefix, { ...CRASH_RECOVERY_ENV, LISTING_SYNC_CONCURRENCY: '4', LOG_LEVEL: 'info' });

    const sync = scenarios.track(startCli(['sync', '--chatbot', BOT, '--feed', feed, '--work', '--json'], env));
    const end = Date.now() + 30_000;
    while (s.state.listings(BOT).length < 40 && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 10));
    await sync.kill();
    expect(s.state.listings(BOT).length, 'killed mid-run').toBeLessThan(ROWS);

    const listed = await runCli(['runs', 'list', '--chatbot', BOT, '--json'], env);
    expect(listed.code, listed.stderr).toBe(0);
    const runId = /"(run-[0-9a-z]+-[0-9a-f]+)"/.exec(listed.stdout)?.[1] ?? '';
    expect(runId).not.toBe('');

    const resumed = await runCli(['runs', 'resume', runId, '--work', '--json'], env, 110_000);
    // A crash leaves what was added so far (README "Guarantees"): on a loaded machine the enqueue
    // thread may not have added every job the run listed when the process died; those are recorded
    // as failed (exit 1) and the next sync plans them again. Whichever it was, nothing is sent twice.
    const { status, result } = jsonOf<{ status?: string; result?: { created: number; failed: number } }>(resumed);
    expect(['done', 'failed'], resumed.stderr).toContain(status);
    expect(resumed.code, resumed.stderr).toBe(status === 'done' ? 0 : 1);
    const idle = linesSaying(resumed.stderr, /no job started or finished/);
    expect(idle.length, resumed.stderr).toBeGreaterThanOrEqual(1);
    for (const line of idle) {
      expect(String(line.msg)).toMatch(
        /jobs? (is|are) held by another worker process, or by one that stopped|the run is not all in the queue yet, and the process adding its jobs may have stopped/,
      );
      expect(String(line.msg)).not.toMatch(/is Redis answering/);
    }
    expect(stackTraceLines(resumed.stderr), resumed.stderr).toEqual([]);
    expect(s.state.duplicateCreates(BOT)).toEqual([]);
    if (status === 'failed') {
      // Only jobs never added failed: the service holds exactly what the run created.
      expect(s.state.listings(BOT).length).toBe(result?.created);
      const next = await runCli(['sync', '--chatbot', BOT, '--feed', feed, '--work', '--json'], env, 110_000);
      expect(next.code, next.stderr).toBe(0);
    }
    await expectConverged(s, BOT, ROWS, feed, env);
  }, 240_000);
});
