/**
 * fleet.yaml → a Fleet, with every problem at its line and column: YAML syntax errors as the
 * `yaml` library reports them (all of them, not the first), then the shape's (fleet-shape.ts),
 * each placed at the key or value it is about.
 */
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import { emptyFleet, type Fleet } from './fleet-model.js';
import { readFleetShape, type FleetPath, type ShapeProblem } from './fleet-shape.js';
import { aliasProblem } from './yaml-aliases.js';
import { orderedProblems, type FleetProblem } from './fleet-problems.js';

export interface ParsedFleet {
  fleet: Fleet;
  problems: FleetProblem[];
  /** Places a problem found later (a value checked by a flag's parser) in the file. */
  locate: (problem: ShapeProblem) => FleetProblem;
}

const pathText = (path: FleetPath): string => path.map(String).join('.');

type Range = [number, number, number] | null | undefined;

/** The range of the key (atKey) or value at `path`, or of the deepest part of it the document has. */
function rangeAt(doc: Document, path: FleetPath, atKey: boolean): Range {
  let node: unknown = doc.contents;
  let range: Range = doc.contents?.range;
  for (const [index, step] of path.entries()) {
    const last = index === path.length - 1;
    if (isMap(node)) {
      const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(step));
      if (pair === undefined) return range;
      const key = pair.key as Node;
      const value = pair.value as Node | null;
      if (last && atKey) return key.range;
      range = value?.range ?? key.range;
      node = value;
    } else if (isSeq(node) && typeof step === 'number') {
      const item = node.items[step] as Node | undefined;
      if (item === undefined) return range;
      range = item.range;
      node = item;
    } else return range;
  }
  return range;
}

/**
 * The document as plain values. Why the alias cap as well as aliasProblem's size bound: the
 * library's own count is the second line of defence, and its ReferenceError becomes a problem.
 */
function expanded(doc: Document): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: doc.toJS({ maxAliasCount: 1000 }) };
  } catch (thrown) {
    if (!(thrown instanceof ReferenceError)) throw thrown;
    return { ok: false, message: `${thrown.message.toLowerCase()}; write the repeated values out, or use fewer aliases` };
  }
}

/**
 * A YAML file's text as its plain value, with its syntax errors (every one, placed) and a way to
 * place a problem found later at the key or value it is about: the one YAML loader of the tool
 * (fleet.yaml, display policies). Never throws for bad input; `value` is undefined when the
 * syntax is broken.
 */
export function readYamlText(text: string): { value: unknown; syntax: FleetProblem[]; locate: (problem: ShapeProblem) => FleetProblem } {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  const at = (offset: number): { line: number; col: number } => lineCounter.linePos(offset);
  const locate = (problem: ShapeProblem): FleetProblem => {
    const range = rangeAt(doc, problem.path, problem.atKey === true);
    return { ...at(range?.[0] ?? 0), path: pathText(problem.path), message: problem.message };
  };
  if (doc.errors.length > 0) {
    const syntax = doc.errors.map((error) => {
      const message = error.message.split('\n')[0] ?? error.message;
      return { ...at(error.pos[0]), path: '', message: `YAML syntax: ${message.replace(/ at line \d+, column \d+:?$/, '')}` };
    });
    return { value: undefined, syntax, locate };
  }
  const aliases = aliasProblem(doc, text.length);
  if (aliases !== undefined)
    return { value: undefined, syntax: [{ ...at(aliases.offset), path: '', message: `YAML: ${aliases.message}` }], locate };
  const js = expanded(doc);
  if (!js.ok) return { value: undefined, syntax: [{ line: 1, col: 1, path: '', message: `YAML: ${js.message}` }], locate };
  return { value: js.value, syntax: [], locate };
}

/** Parses a fleet file's text; never throws for bad input (every problem is in `problems`). */
export function parseFleetText(text: string): ParsedFleet {
  const { value, syntax, locate } = readYamlText(text);
  if (syntax.length > 0) return { fleet: emptyFleet(), problems: syntax, locate };
  const { fleet, problems } = readFleetShape(value);
  return { fleet, problems: orderedProblems(problems.map(locate)), locate };
}
