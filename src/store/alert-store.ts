/**
 * Alerts and chatbot health in Redis (layout in alert-keys.ts): the alert configurations, the
 * delivery log, and per chatbot the status machine's state with a compare-and-set. Every command
 * touches one key (or one chatbot's key), so the layout works on Redis Cluster as it is.
 */
import type { RedisClient } from './redis-client.js';
import type { HealthState } from '../domain/health/transition.js';
import { HEALTH_STATUSES } from '../domain/health/status.js';
import { alertConfigSchema, alertDeliverySchema, type AlertConfig, type AlertDelivery } from './alert-config.js';
import { alertKeys, type AlertKeys } from './alert-keys.js';
import { luaScript, runLua } from './lua.js';
import { maskWebhookUrl, webhookSecrets } from '../domain/health/webhook-url.js';
import type { WebhookSeal } from '../domain/health/webhook-seal.js';
import { registerSecrets } from '../shared/secret-scrub.js';
import { ErrorCode } from '../shared/error-codes.js';
import { ListingSyncError } from '../shared/errors.js';

/** Deliveries kept in the log (newest first): enough for the dashboard to show recent trouble. */
export const DELIVERIES_KEPT = 500;

/** The state field of the health page (default thresholds). Alert names cannot collide: theirs are `c:{name}`. */
export const HEALTH_FIELD = 'health';
export const alertField = (name: string): string => `c:${name}`;

/** Sets a field only if it still holds what the caller read (''= absent): one evaluator wins a change. */
const COMPARE_AND_SET = luaScript(`
local current = redis.call('HGET', KEYS[1], ARGV[1]) or ''
if current ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
`);

function parseState(text: string | undefined): HealthState | undefined {
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as Partial<HealthState>;
    const status = HEALTH_STATUSES.find((s) => s === value.status);
    if (status === undefined || typeof value.since !== 'number') return undefined;
    return {
      status,
      since: value.since,
      streak: typeof value.streak === 'number' ? value.streak : 1,
      ...(typeof value.runId === 'string' ? { runId: value.runId } : {}),
    };
  } catch {
    return undefined;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A state as read, with its raw text for the compare-and-set. */
export interface StoredState {
  state?: HealthState;
  raw: string;
}

export class AlertStore {
  readonly keys: AlertKeys;

  /** `webhooks`: the seal of a process holding the job key; without it (the dashboard) configurations are read for showing only. */
  constructor(
    readonly redis: RedisClient,
    prefix: string,
    private readonly webhooks?: WebhookSeal,
  ) {
    this.keys = alertKeys(prefix);
  }

  /** Adds or replaces a configuration, its webhook sealed; true when one of that name existed. */
  async saveConfig(config: AlertConfig): Promise<boolean> {
    const url = this.webhookUrl(config);
    registerSecrets(webhookSecrets(url));
    if (this.webhooks === undefined)
      throw new ListingSyncError(
        ErrorCode.CONFIG,
        'alert webhooks are stored sealed with the job key: set LISTING_SYNC_JOB_KEY (or API_SECRET_KEY) as the workers have it',
      );
    const stored: AlertConfig = { ...config, webhook: this.webhooks.seal(url), webhookShown: maskWebhookUrl(url) };
    return (await this.redis.hset(this.keys.configs(), config.name, JSON.stringify(stored))) === 0;
  }

  /**
   * The webhook URL to post to. Fails, not retryable, with one line naming the setting and the
   * command when it was sealed under another job key (or this process has none).
   */
  webhookUrl(config: AlertConfig): string {
    const url = this.openedWebhook(config);
    if (url !== undefined) return url;
    throw new ListingSyncError(
      ErrorCode.CONFIG,
      `alert ${config.name}'s webhook cannot be opened with this process's job key: set the LISTING_SYNC_JOB_KEY it was stored with, ` +
        `or enter the webhook again with \`listing-sync alerts add ${config.name} --webhook URL\``,
      { retryable: false },
    );
  }

  /** The webhook URL, or undefined when it does not open here. */
  openedWebhook(config: Pick<AlertConfig, 'webhook'>): string | undefined {
    if (typeof config.webhook === 'string') return config.webhook;
    try {
      return this.webhooks?.open(config.webhook);
    } catch {
      return undefined;
    }
  }

  /**
   * A stored configuration, its webhook's secret parts registered with the scrubber as it is read
   * (when it opens here): whatever this process writes after reading it (a log line, a job
   * failure, a page) cannot show them.
   */
  private readConfig(text: string): AlertConfig | undefined {
    const parsed = alertConfigSchema.safeParse(parseJson(text));
    if (!parsed.success) return undefined;
    const url = this.openedWebhook(parsed.data);
    if (url !== undefined) registerSecrets(webhookSecrets(url));
    return parsed.data;
  }

  async removeConfig(name: string): Promise<boolean> {
    return (await this.redis.hdel(this.keys.configs(), name)) === 1;
  }

  async getConfig(name: string): Promise<AlertConfig | undefined> {
    const text = await this.redis.hget(this.keys.configs(), name);
    return text === null ? undefined : this.readConfig(text);
  }

  /** Every readable configuration, by name. */
  async listConfigs(): Promise<AlertConfig[]> {
    const hash = await this.redis.hgetall(this.keys.configs());
    return Object.values(hash)
      .flatMap((text) => this.readConfig(text) ?? [])
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Every state field of a chatbot (`health`, `c:{alert}`), with raw text. */
  async states(chatbot: string): Promise<Map<string, StoredState>> {
    const hash = await this.redis.hgetall(this.keys.state(chatbot));
    return new Map(
      Object.entries(hash).map(([field, raw]) => {
        const state = parseState(raw);
        return [field, state === undefined ? { raw } : { state, raw }];
      }),
    );
  }

  /** Writes `next` to `field` if it still holds `expectedRaw` ('' = absent); false when another evaluator got there first. */
  async compareAndSet(chatbot: string, field: string, expectedRaw: string, next: HealthState): Promise<boolean> {
    return (await runLua(this.redis, COMPARE_AND_SET, [this.keys.state(chatbot)], [field, expectedRaw, JSON.stringify(next)])) === 1;
  }

  /** Forgets a removed alert's state for the chatbots given. */
  async forgetState(chatbots: readonly string[], field: string): Promise<void> {
    await Promise.all(chatbots.map((chatbot) => this.redis.hdel(this.keys.state(chatbot), field)));
  }

  async track(chatbots: readonly string[]): Promise<void> {
    if (chatbots.length > 0) await this.redis.sadd(this.keys.trackedChatbots(), ...chatbots);
  }

  async trackedChatbots(): Promise<string[]> {
    return (await this.redis.smembers(this.keys.trackedChatbots())).sort();
  }

  /** Appends to the delivery log (one key: a MULTI of push and trim). */
  async recordDelivery(delivery: AlertDelivery): Promise<void> {
    await this.redis
      .multi()
      .lpush(this.keys.deliveries(), JSON.stringify(delivery))
      .ltrim(this.keys.deliveries(), 0, DELIVERIES_KEPT - 1)
      .exec();
  }

  /** The newest deliveries first. */
  async deliveries(limit = 100): Promise<AlertDelivery[]> {
    const rows = await this.redis.lrange(this.keys.deliveries(), 0, limit - 1);
    return rows.map((text) => alertDeliverySchema.safeParse(parseJson(text))).flatMap((parsed) => (parsed.success ? [parsed.data] : []));
  }
}
