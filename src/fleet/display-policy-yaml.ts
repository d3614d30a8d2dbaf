/**
 * A display policy file (`--display-policy FILE`, a fleet source's `displayPolicy`) → the policy,
 * with every problem at its line and column, read by the tool's one YAML loader (fleet-yaml.ts).
 */
import { readDisplayPolicy } from '../domain/display-policy/policy-shape.js';
import type { DisplayPolicy } from '../domain/display-policy/policy.js';
import { readYamlText } from './fleet-yaml.js';
import { orderedProblems, type FleetProblem } from './fleet-problems.js';

/** The policy `text` declares; usable only when `problems` is empty. Never throws for bad input. */
export function parseDisplayPolicyText(text: string): { policy: DisplayPolicy; problems: FleetProblem[] } {
  const { value, syntax, locate } = readYamlText(text);
  if (syntax.length > 0) return { policy: {}, problems: syntax };
  const { policy, problems } = readDisplayPolicy(value);
  return { policy, problems: orderedProblems(problems.map(locate)) };
}
