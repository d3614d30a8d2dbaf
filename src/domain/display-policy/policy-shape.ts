/**
 * A display policy's plain value (what YAML gave) checked key by key, every problem with the path
 * it is at, so the reader can place it at its line and column: an unknown key, a value of the
 * wrong type, a field name no feed has, a rule without a date.
 */
import { didYouMean } from '../../shared/nearest-names.js';
import { isKnownFieldName, KNOWN_FIELD_NAMES } from './field-names.js';
import { POLICY_KEYS, RULE_KEYS, ruleStart, type DisplayPolicy, type DisplayRule } from './policy.js';

export interface PolicyProblem {
  path: Array<string | number>;
  message: string;
  /** The problem is the key's (an unknown key), not its value's. */
  atKey?: boolean;
}

type Plain = Record<string, unknown>;
const isRecord = (value: unknown): value is Plain => typeof value === 'object' && value !== null && !Array.isArray(value);

type Settings = Omit<DisplayRule, 'from'>;

/** A date YAML gave as a Date (a 1.1 timestamp) back as the text it was typed as. */
function dateText(value: unknown): unknown {
  return value instanceof Date ? value.toISOString().replace(/T00:00:00\.000Z$/, '') : value;
}

class PolicyReader {
  readonly problems: PolicyProblem[] = [];

  add(path: PolicyProblem['path'], message: string, atKey = false): void {
    this.problems.push({ path, message, ...(atKey ? { atKey } : {}) });
  }

  names(path: PolicyProblem['path'], value: unknown, what: 'field' | 'status'): string[] | undefined {
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && item.trim() !== '')) {
      this.add(path, `takes a list of ${what} names, e.g. [${what === 'field' ? 'PrivateRemarks, ListAgentEmail' : 'Active, Pending'}]`);
      return undefined;
    }
    const names = (value as string[]).map((item) => item.trim());
    if (what === 'field')
      names.forEach((name, index) => {
        if (!isKnownFieldName(name))
          this.add([...path, index], `unknown field '${name}'${didYouMean(name.replace(/\*$/, ''), KNOWN_FIELD_NAMES)}`);
      });
    return names;
  }

  /** The settings a policy and a rule share, read from `entry` into `into`. */
  settings(path: PolicyProblem['path'], entry: Plain, into: Settings): void {
    const at = (key: string): PolicyProblem['path'] => [...path, key];
    if (entry.attribution !== undefined) {
      if (typeof entry.attribution === 'string' && entry.attribution.trim() !== '') into.attribution = entry.attribution;
      else this.add(at('attribution'), 'takes a text such as "Listing courtesy of {ListOfficeName}"');
    }
    if (entry.requireAttribution !== undefined) {
      if (typeof entry.requireAttribution === 'boolean') into.requireAttribution = entry.requireAttribution;
      else this.add(at('requireAttribution'), 'takes true or false');
    }
    for (const key of ['withhold', 'statuses'] as const) {
      if (entry[key] === undefined) continue;
      const names = this.names(at(key), entry[key], key === 'withhold' ? 'field' : 'status');
      if (names !== undefined) into[key] = names;
    }
    const soldWithinDays = entry.soldWithinDays;
    if (soldWithinDays !== undefined) {
      if (typeof soldWithinDays === 'number' && Number.isInteger(soldWithinDays) && soldWithinDays >= 0)
        into.soldWithinDays = soldWithinDays;
      else this.add(at('soldWithinDays'), 'takes a whole number of days (0 or more)');
    }
    const maxStaleHours = entry.maxStaleHours;
    if (maxStaleHours !== undefined) {
      if (typeof maxStaleHours === 'number' && Number.isFinite(maxStaleHours) && maxStaleHours > 0) into.maxStaleHours = maxStaleHours;
      else this.add(at('maxStaleHours'), 'takes a number of hours above 0');
    }
  }

  unknownKeys(path: PolicyProblem['path'], entry: Plain, known: readonly string[], what: string): void {
    for (const key of Object.keys(entry))
      if (!known.includes(key))
        this.add([...path, key], `unknown ${what} '${key}'${didYouMean(key, known)}; ${what}s are ${known.join(', ')}`, true);
  }

  rule(path: PolicyProblem['path'], value: unknown): DisplayRule | undefined {
    if (!isRecord(value)) {
      this.add(path, 'a rule is a mapping: { from: 2027-01-15, withhold: [ListAgentEmail] }');
      return undefined;
    }
    this.unknownKeys(path, value, RULE_KEYS, 'rule key');
    const from = dateText(value.from);
    if (from === undefined) this.add(path, 'needs from: the date the rule takes effect, e.g. 2027-01-15');
    else if (typeof from !== 'string' || ruleStart(from) === undefined)
      this.add([...path, 'from'], 'takes a date (2027-01-15) or an ISO date-time (2027-01-15T06:00:00Z)');
    const rule: DisplayRule = { from: typeof from === 'string' ? from : '' };
    this.settings(path, value, rule);
    return rule;
  }
}

/** The policy `value` declares, and every problem found in it (the policy is usable only when there are none). */
export function readDisplayPolicy(value: unknown): { policy: DisplayPolicy; problems: PolicyProblem[] } {
  const r = new PolicyReader();
  const policy: DisplayPolicy = {};
  if (value === undefined || value === null) return { policy, problems: [] };
  if (!isRecord(value)) {
    r.add([], `a display policy is a mapping of ${POLICY_KEYS.join(', ')}`);
    return { policy, problems: r.problems };
  }
  r.unknownKeys([], value, POLICY_KEYS, 'key');
  r.settings([], value, policy);
  if (value.rules !== undefined) {
    if (!Array.isArray(value.rules)) r.add(['rules'], 'takes a list of rules: - { from: 2027-01-15, withhold: [ListAgentEmail] }');
    else {
      const rules = value.rules.map((rule: unknown, index) => r.rule(['rules', index], rule));
      policy.rules = rules.filter((rule): rule is DisplayRule => rule !== undefined);
    }
  }
  return { policy, problems: r.problems };
}
