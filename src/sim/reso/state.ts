/**
 * Everything a running RESO simulator holds: records, configuration, tokens, the budget, fault
 * plan and counters. The in-process admin view (tests call it directly); the admin routes call
 * the same methods over HTTP.
 */
import { seededRandom } from '../faults.js';
import type { ResetInput } from './admin-schemas.js';
import { RequestBudget } from './budget.js';
import { DEFAULT_RESO_CREDENTIALS, resoConfigOf, resoConfigSchema, type ResoConfigChange } from './config.js';
import { ResoCounterBook } from './counters.js';
import { ResoFaultPlan } from './faults.js';
import { ResoRecords } from './store.js';
import { TokenIssuer } from './token.js';
import { ResoMediaHost } from './media-host.js';
import type { ResoConfig, ResoCounters, ResoCredentials, ResoRequestLog, ResoSimOptions } from './types.js';

export class ResoSimState {
  /** The records; seed, modify, withdraw, remove and set media through it. */
  readonly records: ResoRecords;
  readonly credentials: ResoCredentials;
  /** The simulator's clock (epoch ms). */
  readonly now: () => number;
  /** The media host (`/media/…`): photo bytes and the MLS media rules, each a mode (media-host.ts). */
  readonly media: ResoMediaHost;
  private config: ResoConfig;
  private readonly tokens: TokenIssuer;
  private readonly budget: RequestBudget;
  private plan: ResoFaultPlan;
  private readonly counterBook = new ResoCounterBook();

  constructor(options: ResoSimOptions = {}) {
    this.now = options.now ?? Date.now;
    this.config = resoConfigOf(options);
    this.credentials = { ...DEFAULT_RESO_CREDENTIALS, ...options.credentials };
    this.records = new ResoRecords(seededRandom(options.seed ?? 1), this.now);
    this.media = new ResoMediaHost(this.now);
    this.tokens = new TokenIssuer(this.now);
    this.budget = new RequestBudget(this.config.budget);
    this.plan = new ResoFaultPlan(this.config.faults);
    if ((options.records ?? 0) > 0) this.records.seed({ count: options.records ?? 0 });
  }

  /** The configuration now (faults with the scripted statuses not yet answered). */
  currentConfig(): ResoConfig {
    return { ...this.config, budget: this.budget.current(), faults: this.plan.current() };
  }

  /**
   * Changes the configuration; members given replace the current ones. New faults restart the
   * fault stream (a new plan); a new budget keeps the windows counted so far and any suspension.
   */
  configure(change: ResoConfigChange): ResoConfig {
    const valid = resoConfigSchema.parse(change);
    const defined = Object.fromEntries(Object.entries(valid).filter(([, value]) => value !== undefined));
    this.config = { ...this.config, ...defined };
    if (valid.budget !== undefined) this.budget.setLimits(valid.budget);
    if (valid.faults !== undefined) this.plan = new ResoFaultPlan(valid.faults);
    return this.currentConfig();
  }

  counters(): ResoCounters {
    return this.counterBook.current();
  }

  /** The newest resource requests (at most 10 000), oldest first. */
  requests(): ResoRequestLog[] {
    return this.counterBook.requests();
  }

  /** Why the client is suspended (every request answered 429), or undefined. */
  suspended(): string | undefined {
    return this.budget.suspended();
  }

  /** Zeroes the counters and the request log, and lifts a suspension (both by default). */
  reset(input: ResetInput = {}): void {
    if (input.counters !== false) this.counterBook.reset();
    if (input.budget !== false) this.budget.reset();
  }

  /**
   * The access tokens issued so far (kept a day past their end), so a test can look for them in
   * what a client printed or stored: a bearer token is a secret like the client secret.
   */
  issuedTokens(): string[] {
    return this.tokens.issued();
  }

  /** Revokes every live token now (the next request with one gets 401); returns how many. */
  revokeTokens(): number {
    return this.tokens.revokeAll();
  }

  /** For the router: the parts a request goes through. */
  get internals(): {
    tokens: TokenIssuer;
    budget: RequestBudget;
    plan: ResoFaultPlan;
    counters: ResoCounterBook;
    issueToken: () => ReturnType<TokenIssuer['issue']>;
  } {
    return {
      tokens: this.tokens,
      budget: this.budget,
      plan: this.plan,
      counters: this.counterBook,
      issueToken: () => {
        this.counterBook.tokenIssued();
        return this.tokens.issue(this.config.tokenTtlSeconds, this.config.faults.tokenRevokeAfterMs);
      },
    };
  }
}
