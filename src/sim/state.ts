/**
 * The simulator's in-memory service state and its in-process admin view: listings per chatbot
 * with service-issued IDs, chatbot settings and knowledge edits, project tables, the call log
 * and the current faults. Handlers change it; tests read it.
 */
import type { EndpointName } from './spec/endpoints.js';
import {
  simListingWriteSchema as listingWriteSchema,
  type KeyType,
  type SaleType,
  type SimChatbotSettings as ChatbotSettings,
  type SimKnowledgeEdit as KnowledgeEdit,
  type SimListingWrite as ListingWrite,
} from './spec/requests.js';
import type { ProjectTable } from './spec/responses.js';
import { FaultPlan } from './faults.js';
import { keyOf, type SyncKeyType } from './listing-keys.js';
import { SimMetrics } from './metrics.js';
import { sampleListing } from './sample-listings.js';
import type { SimCallLog, SimFaults, StoredListing } from './types.js';

export interface ListingFilter {
  CityName?: string;
  SaleType?: SaleType;
  MLSNumber?: string;
}

export interface SimStateInit {
  chatbots: readonly string[];
  listings?: Record<string, ListingWrite[]>;
  tables: Record<string, readonly ProjectTable[]>;
  faults?: SimFaults;
}

/** Offset of the listing numbers drift inserts, far from the numbers tests seed with. */
const DRIFT_BASE = 900_000;

export class SimState {
  private readonly store = new Map<string, Map<string, StoredListing>>();
  private readonly settings = new Map<string, ChatbotSettings>();
  private readonly knowledgeEdits = new Map<string, KnowledgeEdit>();
  private readonly projectTables: Map<string, readonly ProjectTable[]>;
  private readonly metrics = new SimMetrics();
  private plan: FaultPlan;
  private lastId = 0;
  private drifted = 0;
  private resets = 0;
  /** Creates through the API of a key (MLSNumber or Url) the chatbot already held at that moment. */
  private duplicateCreateLog: Array<{ chatbot: string; keyType: SyncKeyType; key: string }> = [];
  /**
   * The MLS numbers and Urls a chatbot holds, kept while only creates change it and dropped by
   * any other change (rebuilt on the next create). Why: checking each API create against every
   * held listing made a create O(n), so a 100k-listing migration cost the simulator O(n²) and
   * the simulator, not the client, set the pace of benchmarks.
   */
  private readonly heldKeys = new Map<string, { mls: Set<string>; urls: Set<string> }>();

  constructor(init: SimStateInit) {
    for (const serial of init.chatbots) this.addChatbot(serial);
    for (const [serial, listings] of Object.entries(init.listings ?? {})) this.seed(serial, listings);
    this.projectTables = new Map(Object.entries(init.tables));
    this.plan = new FaultPlan(init.faults);
  }

  // --- chatbots and listings -------------------------------------------------------------

  hasChatbot(serial: string): boolean {
    return this.store.has(serial);
  }

  chatbots(): string[] {
    return [...this.store.keys()];
  }

  addChatbot(serial: string): void {
    if (!this.store.has(serial)) this.store.set(serial, new Map());
  }

  /** Stored listings of a chatbot (copies), by ID ascending. */
  listings(chatbot: string): StoredListing[] {
    return [...(this.store.get(chatbot)?.values() ?? [])].map((listing) => structuredClone(listing));
  }

  /** How many listings a chatbot holds, without copying them (what a poll during a run asks). */
  listingCount(chatbot: string): number {
    return this.store.get(chatbot)?.size ?? 0;
  }

  /** Keys held by more than one listing of the chatbot: what a duplicating client leaves behind. */
  duplicates(chatbot: string, keyType: SyncKeyType): string[] {
    const seen = new Map<string, number>();
    for (const listing of this.store.get(chatbot)?.values() ?? []) {
      const key = keyOf(listing, keyType === 'MLSNumber' ? 'MLSNumber' : 'URL');
      seen.set(key, (seen.get(key) ?? 0) + 1);
    }
    return [...seen].filter(([, count]) => count > 1).map(([key]) => key);
  }

  /** Adds listings to a chatbot (created if needed) as if created through the API; returns their IDs. */
  seed(chatbot: string, listings: readonly ListingWrite[]): string[] {
    this.addChatbot(chatbot);
    return listings.map((listing) => this.create(listingWriteSchema.parse({ ...listing, SerialNumber: chatbot })));
  }

  /** Removes a chatbot's listings matching `predicate`; returns how many. */
  remove(chatbot: string, predicate: (listing: StoredListing) => boolean): number {
    const listings = this.store.get(chatbot);
    if (!listings) return 0;
    this.heldKeys.delete(chatbot);
    let removed = 0;
    for (const [id, listing] of listings) {
      if (predicate(listing)) {
        listings.delete(id);
        removed += 1;
      }
    }
    return removed;
  }

  /**
   * A create request from a client: stored like any create, and counted as a duplicate create
   * when the chatbot already held a listing with its MLSNumber or its Url. Why count creates and
   * not only duplicates left at the end: a client that duplicates and then cleans up has still
   * broken its promise (the copy was visible, and its id may have been handed out).
   */
  createFromApi(listing: ListingWrite): string {
    const chatbot = listing.SerialNumber;
    const held = this.heldKeysOf(chatbot);
    if (held.mls.has(listing.MLSNumber)) this.duplicateCreateLog.push({ chatbot, keyType: 'MLSNumber', key: listing.MLSNumber });
    if (held.urls.has(listing.Url)) this.duplicateCreateLog.push({ chatbot, keyType: 'URL', key: listing.Url });
    return this.create(listing);
  }

  private heldKeysOf(chatbot: string): { mls: Set<string>; urls: Set<string> } {
    let held = this.heldKeys.get(chatbot);
    if (held === undefined) {
      const listings = [...(this.store.get(chatbot)?.values() ?? [])];
      held = { mls: new Set(listings.map((l) => l.MLSNumber)), urls: new Set(listings.map((l) => l.Url)) };
      this.heldKeys.set(chatbot, held);
    }
    return held;
  }

  /**
   * Duplicate creates seen, in order: creates of a key the chatbot already held under `keyType`
   * (default MLSNumber, the default sync key), optionally of one chatbot.
   */
  duplicateCreates(chatbot?: string, keyType: SyncKeyType = 'MLSNumber'): Array<{ chatbot: string; keyType: SyncKeyType; key: string }> {
    return this.duplicateCreateLog
      .filter((entry) => entry.keyType === keyType && (chatbot === undefined || entry.chatbot === chatbot))
      .map((entry) => ({ ...entry }));
  }

  /** Stores a validated listing under its SerialNumber (which must exist); returns the new ID. */
  create(listing: ListingWrite): string {
    const listings = this.store.get(listing.SerialNumber);
    if (!listings) throw new Error(`chatbot ${listing.SerialNumber} not found`);
    this.lastId += 1;
    const id = String(this.lastId);
    listings.set(id, { ...structuredClone(listing), ID: id });
    const held = this.heldKeys.get(listing.SerialNumber);
    held?.mls.add(listing.MLSNumber);
    held?.urls.add(listing.Url);
    return id;
  }

  /** Replaces the fields of every listing of `chatbot` whose key matches; returns how many. */
  update(chatbot: string, keyType: KeyType, key: string, fields: ListingWrite): number {
    const listings = this.store.get(chatbot);
    if (!listings) return 0;
    this.heldKeys.delete(chatbot);
    let updated = 0;
    for (const [id, listing] of listings) {
      if (keyOf(listing, keyType) !== key) continue;
      listings.set(id, { ...structuredClone(fields), SerialNumber: chatbot, ID: id });
      updated += 1;
    }
    return updated;
  }

  /** Deletes every listing of `chatbot` whose key matches; returns how many. */
  deleteByKey(chatbot: string, keyType: KeyType, key: string): number {
    return this.remove(chatbot, (listing) => keyOf(listing, keyType) === key);
  }

  /** Listings of a chatbot matching the list filters (api-spec 4.1), by ID ascending. Not copies. */
  query(chatbot: string, filter: ListingFilter): StoredListing[] {
    const city = filter.CityName?.toLowerCase();
    return [...(this.store.get(chatbot)?.values() ?? [])].filter(
      (listing) =>
        (city === undefined || (listing.City ?? '').toLowerCase() === city) &&
        (filter.SaleType === undefined || listing.SaleType === filter.SaleType) &&
        (filter.MLSNumber === undefined || listing.MLSNumber === filter.MLSNumber),
    );
  }

  /** Drift fault: inserts a new listing or removes a random existing one of `chatbot`. */
  drift(chatbot: string): void {
    const listings = this.store.get(chatbot);
    if (!listings) return;
    const random = this.plan.driftRandom;
    const ids = [...listings.keys()];
    if (ids.length > 0 && random() < 0.5) {
      const victim = ids[Math.floor(random() * ids.length)];
      if (victim !== undefined) listings.delete(victim);
      this.heldKeys.delete(chatbot);
      return;
    }
    this.drifted += 1;
    const n = DRIFT_BASE + this.drifted;
    this.create(sampleListing(n, { SerialNumber: chatbot, MLSNumber: `DRIFT${n}` }));
  }

  // --- chatbot settings, knowledge, tables -------------------------------------------------

  /** Settings stored by Edit, merged over earlier edits (Edit changes only the fields it sends). */
  chatbotSettings(serial: string): ChatbotSettings | undefined {
    const stored = this.settings.get(serial);
    return stored && structuredClone(stored);
  }

  saveSettings(settings: ChatbotSettings): void {
    this.settings.set(settings.serialNumber, { ...this.settings.get(settings.serialNumber), ...settings });
  }

  /** The last knowledge edit stored by EditKnowledge. */
  knowledge(serial: string): KnowledgeEdit | undefined {
    const stored = this.knowledgeEdits.get(serial);
    return stored && structuredClone(stored);
  }

  saveKnowledge(edit: KnowledgeEdit): void {
    this.knowledgeEdits.set(edit.serialNumber, structuredClone(edit));
  }

  tables(randomCode: string): ProjectTable[] {
    return structuredClone([...(this.projectTables.get(randomCode) ?? [])]);
  }

  // --- traffic and faults ------------------------------------------------------------------

  calls(): SimCallLog[] {
    return this.metrics.calls();
  }

  callCounts(): Record<EndpointName, number> {
    return this.metrics.callCounts();
  }

  /** Requests to create, update, delete, edit and editKnowledge, whatever their outcome. */
  writeCalls(): number {
    return this.metrics.writeCalls();
  }

  /** Most requests to the seven endpoints seen in flight at once (latency included). */
  maxInFlight(): number {
    return this.metrics.maxInFlight();
  }

  inFlight(): number {
    return this.metrics.inFlight();
  }

  resetCounters(): void {
    this.metrics.reset();
    this.duplicateCreateLog = [];
    this.resets = 0;
  }

  /** Whether the service is down (faults `outage`): every service request's connection is reset. */
  inOutage(): boolean {
    return this.plan.current().outage === true;
  }

  /** Counts a request whose connection the outage reset. */
  countOutageReset(): void {
    this.resets += 1;
  }

  /** Requests whose connection an outage reset (since the last resetCounters). */
  outageResets(): number {
    return this.resets;
  }

  /** Replaces the faults (and restarts their PRNG from the new seed), e.g. set rates to 0 to let a run converge. */
  setFaults(faults: SimFaults): void {
    this.plan = new FaultPlan(faults);
  }

  faults(): SimFaults {
    return this.plan.current();
  }

  /** For the router: the current fault plan and the metrics it records into. */
  get internals(): { plan: FaultPlan; metrics: SimMetrics } {
    return { plan: this.plan, metrics: this.metrics };
  }
}
