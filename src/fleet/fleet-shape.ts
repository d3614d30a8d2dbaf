/**
 * Reads the plain value of a fleet file (what YAML gave) into a Fleet, collecting every problem
 * with the path it is at: an unknown key, a missing or wrongly typed value, an unknown source
 * name, a bad `where`. Values whose meaning belongs to a flag (a cron pattern, a budget, a
 * maxDeletes) are checked later, against the flags' own parsers.
 */
import { editDistance } from '../shared/edit-distance.js';
import {
  ALERT_KEYS,
  ALERT_TEXT_SETTINGS,
  CHATBOT_KEYS,
  CHATBOT_TEXT_SETTINGS,
  ENV_NAME,
  FLEET_NAME,
  SOURCE_FLAG_SETTINGS,
  SOURCE_KEYS,
  SOURCE_TEXT_SETTINGS,
  TOP_KEYS,
  emptyFleet,
  type Fleet,
  type FleetAlert,
  type FleetChatbot,
  type FleetSource,
} from './fleet-model.js';
import { whereProblems, type Where } from '../domain/where.js';

export type FleetPath = Array<string | number>;

/** A problem at a path of the file; `atKey` when it is the key's (an unknown setting), not its value's. */
export interface ShapeProblem {
  path: FleetPath;
  message: string;
  atKey?: boolean;
}

type Plain = Record<string, unknown>;
const isRecord = (value: unknown): value is Plain => typeof value === 'object' && value !== null && !Array.isArray(value);

/** " (did you mean x?)" for a key one or two typos away from a known one. */
function hint(typed: string, known: readonly string[]): string {
  const tolerance = Math.max(1, Math.floor(typed.length / 3));
  const best = known
    .map((name) => ({ name, score: editDistance(typed.toLowerCase(), name.toLowerCase()) }))
    .sort((a, b) => a.score - b.score)[0];
  return best !== undefined && best.score <= tolerance ? ` (did you mean ${best.name}?)` : '';
}

class Reader {
  readonly problems: ShapeProblem[] = [];

  add(path: FleetPath, message: string, atKey = false): void {
    this.problems.push({ path, message, ...(atKey ? { atKey } : {}) });
  }

  /** The keys of `value` that `known` lacks, each a problem; `extra` says more for some of them. */
  unknownKeys(path: FleetPath, value: Plain, known: readonly string[], what: string, extra: Record<string, string> = {}): void {
    for (const key of Object.keys(value))
      if (!known.includes(key))
        this.add([...path, key], `unknown ${what} '${key}'${extra[key] ?? hint(key, known)}; ${what}s are ${known.join(', ')}`, true);
  }

  /** A map of named entries (sources, chatbots, alerts); names checked. */
  entries(path: FleetPath, value: unknown): Array<[string, Plain]> {
    if (value === undefined || value === null) return [];
    if (!isRecord(value)) {
      this.add(path, `takes named entries (name: settings)`);
      return [];
    }
    const found: Array<[string, Plain]> = [];
    for (const [name, entry] of Object.entries(value)) {
      if (!FLEET_NAME.test(name))
        this.add([...path, name], `name '${name}' must be 1-64 of A-Z a-z 0-9 . _ - and start with a letter or digit`, true);
      if (isRecord(entry)) found.push([name, entry]);
      else this.add([...path, name], 'takes settings (key: value)');
    }
    return found;
  }

  /** A text setting as typed on the command line: numbers are taken as their text. */
  text(path: FleetPath, value: unknown): string | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    this.add(path, 'takes a text or a number');
    return undefined;
  }

  flag(path: FleetPath, value: unknown): boolean | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'boolean') return value;
    this.add(path, 'takes true or false');
    return undefined;
  }

  /** A list of texts: a YAML list, or one text with commas (as the flags take them). */
  list(path: FleetPath, value: unknown): string[] | undefined {
    if (value === undefined || value === null) return undefined;
    const items = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : undefined;
    if (items === undefined || !items.every((item) => typeof item === 'string')) {
      this.add(path, 'takes a list of names, or one text with commas');
      return undefined;
    }
    const names = [...new Set(items.map((item) => item.trim()).filter((item) => item !== ''))];
    return names.length === 0 ? undefined : names;
  }
}

function readSource(r: Reader, path: FleetPath, entry: Plain): FleetSource {
  r.unknownKeys(path, entry, SOURCE_KEYS, 'source setting');
  const feed = r.text([...path, 'feed'], entry.feed);
  if (feed === undefined && entry.feed === undefined) r.add(path, 'needs feed: a file path or an http(s) URL');
  const source: FleetSource = { feed: feed ?? '' };
  for (const key of SOURCE_TEXT_SETTINGS) {
    const value = r.text([...path, key], entry[key]);
    if (value !== undefined) source[key] = value;
  }
  for (const key of SOURCE_FLAG_SETTINGS) {
    const value = r.flag([...path, key], entry[key]);
    if (value !== undefined) source[key] = value;
  }
  const schedule = entry.schedule;
  if (schedule !== undefined && schedule !== null) {
    const at = [...path, 'schedule'];
    if (!isRecord(schedule)) r.add(at, 'takes { cron: "0 2 * * *", tz: America/Chicago }');
    else {
      r.unknownKeys(at, schedule, ['cron', 'tz'], 'schedule setting');
      const cron = r.text([...at, 'cron'], schedule.cron);
      const tz = r.text([...at, 'tz'], schedule.tz);
      if (cron === undefined && schedule.cron === undefined) r.add(at, 'needs cron, e.g. "0 2 * * *"');
      if (cron !== undefined) source.schedule = { cron, ...(tz === undefined ? {} : { tz }) };
    }
  }
  return source;
}

function readChatbot(r: Reader, path: FleetPath, entry: Plain, sources: readonly string[]): FleetChatbot {
  r.unknownKeys(path, entry, CHATBOT_KEYS, 'chatbot setting');
  const source = r.text([...path, 'source'], entry.source);
  if (source === undefined && entry.source === undefined) r.add(path, 'needs source: the name of one of the sources');
  else if (source !== undefined && !sources.includes(source))
    r.add(
      [...path, 'source'],
      `unknown source '${source}'${hint(source, sources)}; ` +
        `${sources.length === 0 ? 'the file declares no sources' : `the sources are ${sources.join(', ')}`}`,
    );
  const chatbot: FleetChatbot = { source: source ?? '' };
  if (entry.where !== undefined) {
    const problems = whereProblems(entry.where);
    for (const problem of problems) r.add([...path, 'where', ...problem.path], problem.message, problem.atKey === true);
    if (problems.length === 0) chatbot.where = entry.where as Where;
  }
  for (const key of CHATBOT_TEXT_SETTINGS) {
    const value = r.text([...path, key], entry[key]);
    if (value !== undefined) chatbot[key] = value;
  }
  const allowWipe = r.list([...path, 'allowWipe'], entry.allowWipe);
  if (allowWipe !== undefined) chatbot.allowWipe = allowWipe;
  return chatbot;
}

function readAlert(r: Reader, path: FleetPath, entry: Plain): FleetAlert {
  // Why a word of its own for `webhook`: the URL is a credential, and the file is kept in version control.
  r.unknownKeys(path, entry, ALERT_KEYS, 'alert setting', {
    webhook: ': the webhook URL is a secret and never goes in the file; name the env variable that holds it with webhookEnv',
  });
  const env = r.text([...path, 'webhookEnv'], entry.webhookEnv);
  if (env === undefined && entry.webhookEnv === undefined)
    r.add(path, 'needs webhookEnv: the name of the env variable holding the webhook URL');
  else if (env !== undefined && !ENV_NAME.test(env))
    r.add(
      [...path, 'webhookEnv'],
      /^https?:/i.test(env)
        ? 'takes the name of an env variable (e.g. OPS_WEBHOOK_URL), never the URL itself: it is a secret'
        : `'${env}' is not an env variable name (letters, digits and _, e.g. OPS_WEBHOOK_URL)`,
    );
  const alert: FleetAlert = { webhookEnv: env ?? '' };
  for (const key of ALERT_TEXT_SETTINGS) {
    const value = r.text([...path, key], entry[key]);
    if (value !== undefined) alert[key] = value;
  }
  const on = r.list([...path, 'on'], entry.on);
  if (on !== undefined) alert.on = on;
  const chatbots = r.list([...path, 'chatbots'], entry.chatbots);
  if (chatbots !== undefined) alert.chatbots = chatbots;
  return alert;
}

/** The Fleet a file's plain value declares, and every problem found in it. */
export function readFleetShape(value: unknown): { fleet: Fleet; problems: ShapeProblem[] } {
  const r = new Reader();
  const fleet = emptyFleet();
  if (value === undefined || value === null) return { fleet, problems: [] };
  if (!isRecord(value)) {
    r.add([], 'a fleet file is a mapping with sources, chatbots and alerts');
    return { fleet, problems: r.problems };
  }
  r.unknownKeys([], value, TOP_KEYS, 'section');
  for (const [name, entry] of r.entries(['sources'], value.sources)) fleet.sources[name] = readSource(r, ['sources', name], entry);
  const sourceNames = Object.keys(fleet.sources);
  for (const [name, entry] of r.entries(['chatbots'], value.chatbots))
    fleet.chatbots[name] = readChatbot(r, ['chatbots', name], entry, sourceNames);
  for (const [name, entry] of r.entries(['alerts'], value.alerts)) fleet.alerts[name] = readAlert(r, ['alerts', name], entry);
  return { fleet, problems: r.problems };
}
