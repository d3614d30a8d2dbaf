/**
 * The display policy file of a sync (`--display-policy FILE`, a fleet source's `displayPolicy`),
 * read when the run starts, and the test clock its dated rules may be judged at. A file that cannot
 * be read or has problems is one line per problem, `FILE:LINE:COLUMN: key: what`, exit 2 (nothing changed).
 */
import { readFile } from 'node:fs/promises';
import type { DisplayPolicy } from '../../domain/display-policy/policy.js';
import { problemLine } from '../../fleet/fleet-problems.js';
import { UsageError } from '../../shared/errors.js';

export async function loadDisplayPolicyFile(file: string): Promise<DisplayPolicy> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (thrown) {
    const code = (thrown as { code?: unknown }).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : String(code ?? 'unreadable');
    throw new UsageError(`--display-policy ${file}: ${reason}; give the path of a YAML display policy (see docs/display-rules.md)`, {
      flag: '--display-policy',
    });
  }
  // Why loaded here: the YAML library is for the commands that read YAML, not every command's start.
  const { parseDisplayPolicyText } = await import('../../fleet/display-policy-yaml.js');
  const { policy, problems } = parseDisplayPolicyText(text.replace(/^\uFEFF/, ''));
  if (problems.length > 0) throw new UsageError(problems.map((problem) => problemLine(file, problem)).join('\n'));
  return policy;
}

/**
 * LISTING_SYNC_NOW (an ISO instant), for tests only: the clock the display policy's dated rules
 * and the health checks read, so a test crosses a rule's date or a staleness limit without waiting.
 * Undefined (the real clock) when unset.
 */
export function testClock(env: NodeJS.ProcessEnv = process.env): (() => number) | undefined {
  const text = env.LISTING_SYNC_NOW;
  if (text === undefined || text.trim() === '') return undefined;
  const at = Date.parse(text.trim());
  if (Number.isNaN(at)) throw new UsageError(`LISTING_SYNC_NOW '${text}' is not an ISO instant such as 2027-01-15T00:00:00Z; unset it`);
  return () => at;
}
