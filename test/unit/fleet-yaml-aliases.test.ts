/** fleet.yaml's aliases: a document that expands past a small multiple of its file is one problem at its line, never thrown. */
import { describe, expect, it } from 'vitest';
import { parseFleetText } from '../../src/fleet/fleet-yaml.js';
import { problemLine } from '../../src/fleet/fleet-problems.js';

/** The classic "billion laughs": ten levels of nine aliases each. */
function billionLaughs(): string {
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let level = 1; level < 10; level++) {
    const previous = String.fromCharCode(96 + level);
    const name = String.fromCharCode(97 + level);
    lines.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]`);
  }
  return `${lines.join('\n')}\n`;
}

const EXPANDS =
  "YAML: aliases expand the document to more than 10 times the file's size; write the repeated values out, or use fewer aliases";

describe('fleet.yaml aliases are bounded', () => {
  it('a billion laughs is one problem at the alias that passed the bound', () => {
    const parsed = parseFleetText(billionLaughs());
    expect(parsed.problems.map((problem) => problemLine('fleet.yaml', problem))).toEqual([`fleet.yaml:6:8: ${EXPANDS}`]);
  });

  it('many aliases of one large value, each small alone, are refused at the first alias', () => {
    const text = `x: &big "${'a'.repeat(95_000)}"\nchatbots:\n${Array.from({ length: 99 }, (_, i) => `  b${i}: { source: s, note: *big }`).join('\n')}\n`;
    expect(parsed(text)).toEqual([`f:3:26: ${EXPANDS}`]);
  });

  it('an alias inside the value it names is refused', () => {
    expect(parsed('a: &a [1, *a]\n')).toEqual(['f:1:11: YAML: an alias refers to the value that contains it; remove the alias']);
  });

  it('ordinary shared settings through aliases and merge keys still read', () => {
    const text = `sources:
  mred: { feed: https://mls.example/odata/Property, profile: reso }
defaults: &defaults { source: mred, maxDeletes: 5 }
chatbots:
${Array.from({ length: 50 }, (_, i) => `  bot-${i}: *defaults`).join('\n')}
`;
    const result = parseFleetText(text);
    expect(result.problems.filter((problem) => problem.message.startsWith('YAML'))).toEqual([]);
  });
});

function parsed(text: string): string[] {
  return parseFleetText(text).problems.map((problem) => problemLine('f', problem));
}
