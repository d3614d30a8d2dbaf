/**
 * Reads a JSON input file for a command. Unreadable or malformed files become one line naming the
 * path and, for bad JSON, the parser's position as line and column (exit 2, nothing sent).
 */
import { readFile } from 'node:fs/promises';
import { ListingSyncError } from '../../shared/errors.js';

function lineAndColumn(text: string, position: number): string {
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  const column = position - before.lastIndexOf('\n');
  return `line ${line}, column ${column}`;
}

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
    const message = thrown instanceof Error ? thrown.message : String(thrown);
    const position = /at position (\d+)/.exec(message);
    const where = position?.[1] === undefined ? '' : ` (${lineAndColumn(text, Number(position[1]))})`;
    throw new ListingSyncError('INVALID_INPUT', `${path} is not valid JSON: ${message}${where}`);
  }
}
