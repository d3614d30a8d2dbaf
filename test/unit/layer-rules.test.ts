/**
 * The layer rules of eslint/layers.js, run through ESLint on probe files placed in each folder:
 * a dependency that crosses the design's layers the wrong way must fail lint, and the ones the
 * design allows must not.
 */
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { layerBlocks } from '../../eslint/layers.js';

const eslint = new ESLint({
  overrideConfigFile: true,
  overrideConfig: [
    { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, plugins: { '@typescript-eslint': tseslint.plugin } },
    ...layerBlocks(),
  ],
});

/** The rule ids ESLint reports for `code` placed at `filePath`. */
async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`);
}

describe('layer rules', () => {
  it.each([
    ['src/domain/probe.ts', "import { x } from '../queue/enqueue.js';"],
    ['src/domain/snapshot/probe.ts', "import { x } from '../../store/ledger.js';"],
    ['src/domain/probe.ts', "import { readFile } from 'node:fs/promises';"],
    ['src/domain/probe.ts', "import { resolveConfig } from '../config/config.js';"],
    ['src/store/probe.ts', "import { resolveConfig } from '../config/config.js';"],
    ['src/domain/probe.ts', "import { createLogger } from '../runtime/logger.js';"],
    ['src/runtime/probe.ts', "import { x } from '../queue/queues.js';"],
    ['src/feed/probe.ts', "import { x } from '../api/client.js';"],
    ['src/api/probe.ts', "import { x } from '../feed/open-feed.js';"],
    ['src/store/probe.ts', "import { x } from '../queue/queues.js';"],
    ['src/queue/probe.ts', "import { x } from '../sync/run-sync.js';"],
    ['src/sync/probe.ts', "import { x } from '../cli/host.js';"],
    ['src/sync/probe.ts', "import { Queue } from 'bullmq';"],
    ['src/dashboard/probe.ts', "import { x } from '../cli/main.js';"],
    ['jobs/probe.ts', "import { x } from '../src/queue/worker.js';"],
    ['jobs/support/probe.ts', "import { x } from '../../src/sync/run-sync.js';"],
    ['jobs/probe.ts', "import { Job } from 'bullmq';"],
    ['src/store/probe.ts', 'export const url = process.env.REDIS_URL;'],
    ['src/queue/probe.ts', 'process.exit(1);'],
    ['src/domain/probe.ts', "export * from './plan.js';"],
    ['src/domain/probe.ts', "import { retryRead } from '../net/retry-read.js';"],
    ['src/net/probe.ts', "import { x } from '../api/errors.js';"],
    ['src/shared/probe.ts', "import { x } from '../domain/listing.js';"],
    ['src/sim/probe.ts', "import { listingWriteSchema } from '../api/schemas.js';"],
    ['src/sim/handlers/probe.ts', "import { ENDPOINTS } from '../../api/endpoints.js';"],
    ['src/sim/probe.ts', "import { listingWriteSchema } from '../domain/listing.js';"],
    // cli's commands, input and output go through sync/ (use cases) or cli/wiring/ (what opens the adapters).
    ['src/cli/commands/probe.ts', "import { enqueuePerChatbot } from '../../queue/enqueue.js';"],
    ['src/cli/commands/probe.ts', "import { cancelRun, type CancelResult } from '../../queue/cancel-run.js';"],
    ['src/cli/input/probe.ts', "import { openFeed } from '../../feed/open-feed.js';"],
    ['src/cli/commands/probe.ts', "import { x } from '../../queue/failed-jobs-extra.js';"],
    ['src/cli/output/probe.ts', "import { syncSummaryOf } from '../../store/run-summary.js';"],
    ['src/cli/commands/probe.ts', "import { listPager } from '../../api/list-pages.js';"],
    ['src/cli/commands/probe.ts', "import { startDashboard } from '../../dashboard/server.js';"],
    ['src/cli/commands/probe.ts', "export const load = () => import('../../dashboard/server.js');"],
    ['src/cli/commands/probe.ts', "export * from '../output/text-table.js';"],
  ])('%s: %s is refused', async (filePath, code) => {
    expect(await problems(filePath, code)).not.toEqual([]);
  });

  it.each([
    ['src/domain/snapshot/probe.ts', "import { x } from '../plan.js';"],
    ['src/feed/probe.ts', "import { x } from '../domain/listing.js';"],
    [
      'src/queue/probe.ts',
      "import { x } from '../store/ledger.js';\nimport { y } from '../api/errors.js';\nimport { z } from '../../jobs/registry.js';",
    ],
    ['src/sync/probe.ts', "import { x } from '../queue/enqueue.js';\nimport { y } from '../feed/open-feed.js';"],
    ['jobs/probe.ts', "import { x } from '../src/store/ledger.js';\nimport { y } from './support/lookup.js';"],
    ['src/cli/wiring/probe.ts', "import { x } from '../../queue/worker.js';\nimport { Command } from 'commander';"],
    ['src/cli/probe.ts', "import { x } from '../queue/connection.js';\nimport { y } from '../store/store.js';"],
    ['src/cli/commands/probe.ts', "import type { Queues } from '../../queue/queues.js';\nimport { x } from '../../sync/run-control.js';"],
    ['src/cli/output/probe.ts', "import { type RunSummary } from '../../store/run-summary.js';"],
    ['src/cli/commands/probe.ts', "import { x } from '../wiring/queue-wiring.js';\nimport { y } from '../../domain/listing.js';"],
    ['src/cli/commands/probe.ts', "export const load = () => import('../wiring/dashboard-wiring.js');"],
    ['src/cli/wiring/probe.ts', "export const load = () => import('../../dashboard/server.js');"],
    ['src/config/config.ts', 'export const url = process.env.REDIS_URL;'],
    ['src/feed/reso-api/probe.ts', "import { x } from '../../net/retry-after.js';\nimport { y } from '../../shared/error-codes.js';"],
    ['src/domain/probe.ts', "import { y } from '../shared/error-codes.js';"],
    // The adapter modules eslint/layers.js lets cli's inner folders import (CLI_ADAPTER_MODULES).
    ['src/cli/input/probe.ts', "import { parseFeedBudget } from '../../feed/reso-api/budget-spec.js';"],
    ['src/cli/commands/probe.ts', "import { listFailedJobs } from '../../queue/failed-jobs.js';"],
    ['src/cli/commands/probe.ts', "import { listingWriteSchema } from '../../api/schemas.js';"],
    ['src/cli/commands/probe.ts', "import { isLoopback } from '../../dashboard/security.js';"],
  ])('%s: %s is allowed', async (filePath, code) => {
    expect(await problems(filePath, code)).toEqual([]);
  });
});
