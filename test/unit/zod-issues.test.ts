import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { explainIssues, issueLines } from '../../src/shared/zod-issues.js';

const schema = z.strictObject({ Items: z.array(z.object({ MLSNumber: z.string().min(1) })), Temperature: z.number().int().optional() });

function issuesOf(input: unknown): z.core.$ZodIssue[] {
  const parsed = schema.safeParse(input);
  if (parsed.success) throw new Error('expected a failure');
  return parsed.error.issues;
}

describe('zod issues as text (the one formatter)', () => {
  it('issueLines: "path: message", with a prefix, bracketed indexes, and a name for the whole value', () => {
    const issues = issuesOf({ Items: [{ MLSNumber: 'a' }, { MLSNumber: '' }] });
    expect(issueLines(issues)).toEqual([`Items.1.MLSNumber: ${issues[0]?.message}`]);
    expect(issueLines(issues, { prefix: ['Data'], brackets: true })).toEqual([`Data.Items[1].MLSNumber: ${issues[0]?.message}`]);
    const whole = z.object({}).safeParse(3);
    expect(whole.success).toBe(false);
    if (!whole.success) {
      expect(issueLines(whole.error.issues, { whole: '(body)' })[0]).toMatch(/^\(body\): /);
      expect(issueLines(whole.error.issues)[0]).toMatch(/^: /);
    }
  });

  it('explainIssues: words a person acts on, with the value given and "did you mean"', () => {
    const input = { Items: [], Temperature: 1.5, Temprature: 2 };
    expect(explainIssues(issuesOf(input), input, ['Items', 'Temperature'])).toEqual([
      'Temperature must be a whole number (got 1.5)',
      "unknown field 'Temprature' (did you mean Temperature?)",
    ]);
    expect(explainIssues(issuesOf({}), {})).toEqual(['Items is required']);
  });
});
