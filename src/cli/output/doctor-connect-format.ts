/** `doctor --connect`'s lines: `✓ NAME  what was found`, and under a ✗ the fix. */
import type { CheckMark, ReadinessCheck } from '../../sync/readiness.js';

const MARKS: Readonly<Record<CheckMark, string>> = { ok: '✓', fail: '✗', skip: '–', warn: '!' };

/** The checks as text, ending with one line that says whether the installation is ready. */
export function formatChecks(checks: readonly ReadinessCheck[]): string {
  const width = Math.max(...checks.map((check) => check.what.length));
  const lines = checks.flatMap((check) => [
    `${MARKS[check.mark]} ${check.what.padEnd(width)}  ${check.detail}`,
    ...((check.mark === 'fail' || check.mark === 'warn') && check.fix !== undefined ? [`  ${' '.repeat(width)}  fix: ${check.fix}`] : []),
  ]);
  const failed = checks.filter((check) => check.mark === 'fail').length;
  const warned = checks.filter((check) => check.mark === 'warn').length;
  const ready = warned === 0 ? 'ready: every check passed' : `ready, with ${warned} warning(s) (!)`;
  lines.push('', failed === 0 ? ready : `not ready: ${failed} check(s) failed (✗)`);
  return `${lines.join('\n')}\n`;
}
