/**
 * The display policy in a sync: the settings its feed is read under (the policy and the instant
 * its dated rules are judged at), and the part of the summary that reports what it did.
 */
import type { FieldTally } from '../domain/field-changes.js';
import type { DisplayReport } from '../domain/display-policy/display-report.js';
import { comingRules, describeRule } from '../domain/display-policy/policy.js';
import type { DisplayPolicy } from '../domain/display-policy/policy.js';
import type { DisplaySettings } from '../feed/display-step.js';
import type { DisplaySummary } from '../store/display-summary.js';
import type { SyncDeps } from './sync-deps.js';
import type { SyncRequest } from './sync-request.js';

/**
 * What the feed of `request` is read under: its policy file read now (a bad one stops the run
 * before anything is read or sent), and the one instant its dated rules are judged at.
 */
export async function displaySettingsOf(deps: SyncDeps, request: SyncRequest): Promise<DisplaySettings> {
  const now = deps.policyNow?.() ?? deps.now();
  const file = request.feed.displayPolicy;
  if (file === undefined) return { now };
  if (deps.loadDisplayPolicy === undefined) throw new Error('runSync: a display policy file needs deps.loadDisplayPolicy');
  const policy: DisplayPolicy = await deps.loadDisplayPolicy(file);
  return { policy, now };
}

/** The summary's `display` part: what the feed's rows had withheld, what the plan blanks, and the rules still to come. */
export function displaySummaryOf(
  report: DisplayReport | undefined,
  blanked: readonly FieldTally[],
  settings: DisplaySettings,
): DisplaySummary | undefined {
  if (report === undefined) return undefined;
  const coming = comingRules(settings.policy, settings.now).map(describeRule);
  return {
    withheld: report.withheld,
    notPublished: report.notPublished,
    attributed: report.attributed,
    unattributed: report.unattributed,
    blanked: [...blanked],
    ...(report.maxStaleHours === undefined ? {} : { maxStaleHours: report.maxStaleHours }),
    ...(coming.length === 0 ? {} : { coming }),
  };
}
