/**
 * The fleet as the displays read it: a `where` in words, which source and chatbots a schedule
 * serves (a chatbot's own schedule, or one of a whole source), and one roster row per chatbot
 * whose feed never shows credentials.
 */
import { describe, expect, it } from 'vitest';
import type { Fleet } from '../../src/fleet/fleet-model.js';
import { whereInWords } from '../../src/fleet/where-words.js';
import type { Schedule } from '../../src/queue/schedules.js';
import { fleetRoster, fleetSourceOf, scheduleFleetOf } from '../../src/sync/fleet-roster.js';

const fleet: Fleet = {
  sources: {
    mred: { feed: 'https://mls.example/odata/Property', profile: 'reso', schedule: { cron: '*/30 * * * *', tz: 'America/Chicago' } },
    'acme-file': { feed: '/feeds/acme.csv', profile: 'redfin', schedule: { cron: '0 2 * * *', tz: 'America/New_York' } },
  },
  chatbots: {
    'beta-bot': { source: 'mred', where: { City: 'Evanston', ListPrice: { gte: 200000 } } },
    'acme-bot': { source: 'mred', where: { ListOfficeMlsId: ['ACME1', 'ACME2'] } },
    'gamma-bot': { source: 'acme-file' },
  },
  alerts: {},
};

const schedule = (name: string, request: Record<string, unknown>): Schedule => ({
  name,
  cron: '0 2 * * *',
  tz: 'America/New_York',
  request: { chatbot: 'x', ...request },
  next: Date.UTC(2026, 10, 28, 7),
});

describe('whereInWords', () => {
  it.each([
    [{ ListOfficeMlsId: ['ACME1', 'ACME2'] }, 'ListOfficeMlsId is ACME1 or ACME2'],
    [{ City: 'Evanston', ListPrice: { gte: 200000 } }, 'City is Evanston; ListPrice ≥ 200,000'],
    [{ ListPrice: { gt: 100000, lte: 1500000.5 } }, 'ListPrice > 100,000 and ≤ 1,500,000.5'],
    [{ ListingContractDate: { gte: '2026-01-01' }, NewConstruction: true }, 'ListingContractDate ≥ 2026-01-01; NewConstruction is true'],
  ])('%j reads as "%s"', (where, words) => {
    expect(whereInWords(where)).toBe(words);
  });
  it('says nothing for no filter', () => {
    expect(whereInWords(undefined)).toBeUndefined();
  });
});

describe('scheduleFleetOf', () => {
  it("finds a chatbot's own schedule by its name or its request", () => {
    expect(scheduleFleetOf(fleet, schedule('fleet-gamma-bot', { chatbot: 'gamma-bot' }))).toEqual({
      source: 'acme-file',
      chatbots: ['gamma-bot'],
    });
    expect(scheduleFleetOf(fleet, schedule('nightly-acme', { chatbot: 'acme-bot' }))).toEqual({ source: 'mred', chatbots: ['acme-bot'] });
  });
  it('gives every chatbot of a source to a schedule that runs the whole source', () => {
    expect(
      scheduleFleetOf(
        fleet,
        schedule('fleet@mred', { chatbot: 'acme-bot,beta-bot', fleetRun: { source: 'mred', sweep: false, requests: [] } }),
      ),
    ).toEqual({
      source: 'mred',
      chatbots: ['acme-bot', 'beta-bot'],
    });
  });
  it('leaves a schedule outside the fleet alone', () => {
    expect(scheduleFleetOf(fleet, schedule('nightly', { chatbot: 'solo-bot' }))).toBeUndefined();
    expect(fleetSourceOf(fleet, 'solo-bot')).toBeUndefined();
    expect(fleetSourceOf(fleet, 'toString')).toBeUndefined();
  });
});

describe('fleetRoster', () => {
  it('lists every chatbot by source, with its filter in words and the schedule that syncs it', () => {
    const withCredentials: Fleet = {
      ...fleet,
      sources: { ...fleet.sources, mred: { feed: 'https://u:secret@mls.example/odata/Property?token=t0k' } },
    };
    const roster = fleetRoster(withCredentials, [
      schedule('fleet-gamma-bot', { chatbot: 'gamma-bot' }),
      schedule('fleet@mred', { chatbot: 'acme-bot,beta-bot', fleetRun: { source: 'mred', sweep: false, requests: [] } }),
    ]);
    expect(roster.map((entry) => [entry.source, entry.chatbot])).toEqual([
      ['acme-file', 'gamma-bot'],
      ['mred', 'acme-bot'],
      ['mred', 'beta-bot'],
    ]);
    expect(roster[0]).toMatchObject({ feed: '/feeds/acme.csv', schedule: { name: 'fleet-gamma-bot', cron: '0 2 * * *' } });
    expect(roster[0]?.filter).toBeUndefined();
    expect(roster[1]).toMatchObject({ feed: 'https://mls.example/odata/Property?…', filter: 'ListOfficeMlsId is ACME1 or ACME2' });
    expect(roster[2]?.schedule?.name).toBe('fleet@mred');
    expect(JSON.stringify(roster)).not.toMatch(/secret|t0k/);
  });
});
