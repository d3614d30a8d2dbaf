import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chatbotSettingsSchema, knowledgeEditSchema } from '../../src/api/schemas.js';
import { listingWriteSchema } from '../../src/domain/listing.js';
import { jsonKindOf, parseSetValues } from '../../src/cli/input/parse-values.js';
import { nearestNames } from '../../src/shared/nearest-names.js';
import { validateInput } from '../../src/cli/input/validate-input.js';
import { readJsonFile } from '../../src/cli/input/read-json-file.js';

const shape = chatbotSettingsSchema.shape;
const reserved = { serialNumber: '--chatbot' };

function failure(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (thrown) {
    return thrown as { code: string; message: string };
  }
  throw new Error('expected a failure');
}

describe('parseSetValues', () => {
  it('types values by the field types of spec 2.1', () => {
    expect(
      parseSetValues(
        ['Name=My bot', 'Temperature=1', 'VerifyDomain=true', 'EnablePushToTalk=false', 'ChatBubbleColor=rgb(1,2,3)', 'WelcomeMessage=a=b'],
        shape,
        reserved,
      ),
    ).toEqual({
      Name: 'My bot',
      Temperature: 1,
      VerifyDomain: true,
      EnablePushToTalk: false,
      ChatBubbleColor: 'rgb(1,2,3)',
      WelcomeMessage: 'a=b',
    });
  });

  it('reads each field kind from the schema', () => {
    expect(jsonKindOf(shape.Temperature)).toBe('number');
    expect(jsonKindOf(shape.VerifyDomain)).toBe('boolean');
    expect(jsonKindOf(shape.Name)).toBe('string');
    expect(jsonKindOf(shape.serialNumber)).toBe('string');
  });

  it('suggests the nearest field names for an unknown field', () => {
    const err = failure(() => parseSetValues(['Colour=rgb(1,2,3)'], shape, reserved));
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.message).toBe("unknown field 'Colour' (did you mean ChatBubbleColor or UserMessageColor?)");
    expect(failure(() => parseSetValues(['Temprature=1'], shape, reserved)).message).toBe(
      "unknown field 'Temprature' (did you mean Temperature?)",
    );
    expect(failure(() => parseSetValues(['Qqqqqqqq=1'], shape, reserved)).message).toMatch(
      /^unknown field 'Qqqqqqqq' \(valid fields: Name, Model, /,
    );
  });

  it('rejects wrong types, bad syntax, reserved and repeated fields', () => {
    expect(failure(() => parseSetValues(['Temperature=hot'], shape, reserved)).message).toBe(
      '--set Temperature=hot: Temperature must be a whole number (e.g. --set Temperature=1)',
    );
    expect(failure(() => parseSetValues(['VerifyDomain=yes'], shape, reserved)).message).toBe(
      '--set VerifyDomain=yes: VerifyDomain must be true or false',
    );
    const usage = failure(() => parseSetValues(['Name'], shape, reserved));
    expect(usage).toMatchObject({ code: 'USAGE', message: "--set expects Field=value (got 'Name')" });
    expect(failure(() => parseSetValues(['serialNumber=x'], shape, reserved)).message).toContain('given by --chatbot');
    expect(failure(() => parseSetValues(['Name=a', 'Name=b'], shape, reserved)).message).toContain('more than once');
  });
});

describe('nearestNames', () => {
  it('finds names by typo and by CamelCase word, and nothing for far names', () => {
    expect(nearestNames('welcomemessage', Object.keys(shape))).toEqual(['WelcomeMessage']);
    expect(nearestNames('zzzzzz', Object.keys(shape))).toEqual([]);
  });
});

describe('validateInput', () => {
  it('reports integers, colours and unknown fields on one line', () => {
    const err = failure(() =>
      validateInput(
        chatbotSettingsSchema,
        { serialNumber: 'b', Temperature: 1.5, ChatBubbleColor: 'red', Colour: 1 },
        'settings.json',
        Object.keys(shape),
      ),
    );
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.message).toBe(
      'settings.json: Temperature must be a whole number (got 1.5); ChatBubbleColor must be a colour of the form rgb(r,g,b) with each part 0-255 (got "red"); unknown field \'Colour\' (did you mean ChatBubbleColor or UserMessageColor?)',
    );
  });

  it('explains the SyncSiteMapDays rule (4.4.1)', () => {
    expect(failure(() => validateInput(knowledgeEditSchema, { serialNumber: 'b', EnableSyncSiteMap: true }, 'k.json')).message).toBe(
      'k.json: SyncSiteMapDays is required when EnableSyncSiteMap is true (one of 30, 7, 1)',
    );
    expect(
      failure(() => validateInput(knowledgeEditSchema, { serialNumber: 'b', EnableSyncSiteMap: true, SyncSiteMapDays: 5 }, 'k.json'))
        .message,
    ).toBe('k.json: SyncSiteMapDays must be one of 30, 7, 1 (got 5)');
    expect(validateInput(knowledgeEditSchema, { serialNumber: 'b', EnableSyncSiteMap: true, SyncSiteMapDays: 7 }, 'k.json')).toMatchObject({
      SyncSiteMapDays: 7,
    });
  });

  it('names enum values and missing fields of the write shape', () => {
    const message = failure(() => validateInput(listingWriteSchema, { SerialNumber: 'b', SaleType: 'sale' }, 'l.json')).message;
    expect(message).toContain('SaleType must be one of "for_sale", "for_rent" (got "sale")');
    expect(message).toContain('Status is required (one of "Active", "PreOnMarket", "Sold"); CurrencySymbol is required;');
  });
});

describe('readJsonFile', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('reads JSON, and names the path and the position of malformed JSON', async () => {
    dir = await mkdtemp(join(tmpdir(), 'ls-json-'));
    const good = join(dir, 'good.json');
    const bad = join(dir, 'bad.json');
    await writeFile(good, '\uFEFF{"a": 1}');
    await writeFile(bad, '{\n  "a": 1,\n}\n');
    expect(await readJsonFile(good)).toEqual({ a: 1 });
    await expect(readJsonFile(bad)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/bad\.json is not valid JSON: .* at line 3, column 1$/),
    });
    await expect(readJsonFile(join(dir, 'none.json'))).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: `cannot read ${join(dir, 'none.json')}: no such file`,
    });
  });
});
