/**
 * Reads a JSON input file for a command. Unreadable or malformed files become one line naming the
 * path and, for bad JSON, the parser's position as line and column (exit 2, nothing sent).
 */
import { readFile } from 'node:fs/promises';
import { ListingSyncError } from '../../shared/errors.js';
import { jsonErrorText } from '../../shared/json-position.js';

/** The parsed JSON value of `path`; throws INVALID_INPUT naming the file when it can't be read or parsed. */
export async function readJsonFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (thrown) {
    const code = (thrown as { code?: unknown }).code;
    const reason =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a directory'
          : code === 'EACCES'
            ? 'permission denied'
            : String(code ?? thrown);
    throw new ListingSyncError('INVALID_INPUT', `cannot read ${path}: ${reason}`);
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch (thrown) {
    throw new ListingSyncError('INVALID_INPUT', `${path} is not valid JSON: ${jsonErrorText(text.replace(/^\uFEFF/, ''), thrown)}`);
  }
}
