/**
 * The display policy as read and as in force: a file's problems at their line and column, the
 * defaults, dated rules taking effect at their date, and flag blanks that are not wipes.
 */
import { describe, expect, it } from 'vitest';
import { fieldChangeCounter } from '../../src/domain/field-changes.js';
import { filledBit } from '../../src/domain/field-changes.js';
import { comingRules, describeRule, displayInForce } from '../../src/domain/display-policy/policy.js';
import { parseDisplayPolicyText } from '../../src/fleet/display-policy-yaml.js';
import { problemLine } from '../../src/fleet/fleet-problems.js';

const lines = (text: string): string[] => parseDisplayPolicyText(text).problems.map((problem) => problemLine('policy.yaml', problem));

describe('reading a display policy file', () => {
  it('reads every key of the issue example', () => {
    const { policy, problems } = parseDisplayPolicyText(
      [
        'attribution: "Courtesy of {ListOfficeName} ({ListOfficePhone})"',
        'requireAttribution: true',
        'withhold: [PrivateRemarks, ShowingInstructions, ListAgentDirectPhone]',
        'statuses: [Active, Pending, Sold]',
        'soldWithinDays: 365',
        'maxStaleHours: 12',
        'rules:',
        '  - from: 2027-01-15',
        '    withhold: [ListAgentEmail]',
      ].join('\n'),
    );
    expect(problems).toEqual([]);
    expect(policy).toEqual({
      attribution: 'Courtesy of {ListOfficeName} ({ListOfficePhone})',
      requireAttribution: true,
      withhold: ['PrivateRemarks', 'ShowingInstructions', 'ListAgentDirectPhone'],
      statuses: ['Active', 'Pending', 'Sold'],
      soldWithinDays: 365,
      maxStaleHours: 12,
      rules: [{ from: '2027-01-15', withhold: ['ListAgentEmail'] }],
    });
  });

  it('places an unknown key and an unknown field at their line and column, one line each', () => {
    expect(lines('attribution: "x {ListOfficeName}"\nwithold: [PrivateRemarks]\n')).toEqual([
      "policy.yaml:2:1: withold: unknown key 'withold' (did you mean withhold?); keys are attribution, requireAttribution, withhold, statuses, soldWithinDays, maxStaleHours, rules",
    ]);
    expect(lines('withhold:\n  - PrivateRemarks\n  - ListAgentEmial\n')).toEqual([
      "policy.yaml:3:5: withhold.1: unknown field 'ListAgentEmial' (did you mean ListAgentEmail or CoListAgentEmail?)",
    ]);
    expect(lines('rules:\n  - from: soon\n    withold: [ListAgentEmail]\n')).toEqual([
      'policy.yaml:2:11: rules.0.from: takes a date (2027-01-15) or an ISO date-time (2027-01-15T06:00:00Z)',
      expect.stringMatching(/^policy\.yaml:3:5: rules\.0\.withold: unknown rule key 'withold'/),
    ]);
    expect(lines('maxStaleHours: twelve\n')).toEqual(['policy.yaml:1:16: maxStaleHours: takes a number of hours above 0']);
  });
});

describe('the policy in force', () => {
  it('by default withholds the restricted fields and attributes to the listing office', () => {
    const inForce = displayInForce(undefined, 0);
    expect(inForce.attribution).toBe('Listing courtesy of {ListOfficeName}');
    expect(inForce.requireAttribution).toBe(false);
    expect(inForce.withhold.map((field) => field.name)).toEqual([
      'PrivateRemarks',
      'ShowingInstructions',
      'ShowingContact*',
      'BuyerBrokerageCompensation*',
    ]);
  });

  it('takes a dated rule from its date on, and names it as coming before', () => {
    const policy = { rules: [{ from: '2027-01-15', withhold: ['ListAgentEmail'], maxStaleHours: 12 }] };
    const before = Date.parse('2027-01-14T23:59:59Z');
    const after = Date.parse('2027-01-15T00:00:00Z');
    expect(displayInForce(policy, before).withhold.some((field) => field.name === 'ListAgentEmail')).toBe(false);
    expect(displayInForce(policy, after).withhold).toContainEqual({ name: 'ListAgentEmail', why: 'rule from 2027-01-15' });
    expect(displayInForce(policy, after).maxStaleHours).toBe(12);
    expect(comingRules(policy, before).map(describeRule)).toEqual(['from 2027-01-15: withhold ListAgentEmail; maxStaleHours 12']);
    expect(comingRules(policy, after)).toEqual([]);
  });
});

describe('a field the display flags blank', () => {
  it('is a display blank, not a wipe', () => {
    const counter = fieldChangeCounter();
    counter.changed('A', [{ field: 'Address', from: '1 Main St', to: undefined }], 0, filledBit('Address'));
    counter.changed('B', [{ field: 'Address', from: '2 Main St', to: undefined }], 0, 0);
    const { wipes, displayBlanks } = counter.finish(new Map([['Address', 2]]));
    expect(wipes.map((wipe) => [wipe.field, wipe.count])).toEqual([['Address', 1]]);
    expect(displayBlanks).toEqual([{ field: 'Address', count: 1, samples: [{ key: 'A', from: '1 Main St', to: undefined }] }]);
  });
});
