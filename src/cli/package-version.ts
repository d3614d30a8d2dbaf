/** The version in package.json, for `--version`. */
import { readFileSync } from 'node:fs';

/**
 * Read from the package.json two folders up: src/cli/ in tests and tsx, dist/cli/ in the shipped
 * bundle (whose import.meta.url is the bundle file), both beside it in the package root.
 */
export function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}
