/**
 * A problem of a YAML file the tool reads (fleet.yaml, a display policy) at its line and column,
 * and how problems are listed. Apart from the YAML loader (fleet-yaml.ts), so that what only
 * words or orders problems does not load the YAML library.
 */
/** A problem of the file, where it is (1-based line and column) and what it is about (e.g. chatbots.acme-bot.source). */
export interface FleetProblem {
  line: number;
  col: number;
  path: string;
  message: string;
}

/** One line per problem: `fleet.yaml:12:5: chatbots.acme-bot.source: unknown source 'mrd' …`. */
export function problemLine(file: string, problem: FleetProblem): string {
  return `${file}:${problem.line}:${problem.col}: ${problem.path === '' ? '' : `${problem.path}: `}${problem.message}`;
}

/** Problems in file order, each once (a value checked for every chatbot of a source is reported once). */
export function orderedProblems(problems: readonly FleetProblem[]): FleetProblem[] {
  const seen = new Set<string>();
  return [...problems]
    .sort((a, b) => a.line - b.line || a.col - b.col)
    .filter((problem) => {
      const key = `${problem.line}:${problem.col}:${problem.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}
