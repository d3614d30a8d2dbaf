/**
 * The simulator's records and every change an admin makes to them. Each change stamps the
 * records it touches (the chosen timestamp, else the clock's now), as an MLS does, so a
 * replication client sees exactly those records in its next incremental pull.
 */
import type { ModifyInput, SeedInput, SetMediaInput, SetStatusInput, StampedKeysInput } from './admin-schemas.js';
import { EntityEventLog } from './entity-events.js';
import { formatStamp, parseInstant } from './instant.js';
import { makePhotos, makeRecord } from './records.js';
import type { ResoMedia, ResoProperty } from './types.js';

/** One record as stored: the Property, its photos (stored order, not Order) and its stamp in ms. */
export interface StoredRecord {
  property: ResoProperty;
  media: ResoMedia[];
  modifiedMs: number;
}

const DEFAULT_STEP_MS = 60_000;

export class ResoRecords {
  private readonly byKey = new Map<string, StoredRecord>();
  private made = 0;
  /** Views for the resources, dropped by every change. */
  private sortedCache = new Map<string, readonly StoredRecord[]>();
  private mediaCache = new Map<string, readonly ResoMedia[]>();
  /** One event per record written (Property) and per photo written or dropped (Media), as the RESO reference server logs them. */
  readonly events = new EntityEventLog();

  constructor(
    private readonly random: () => number,
    private readonly now: () => number,
  ) {}

  /** Adds `count` new records; returns their ListingKeys in stamp order. */
  seed(input: SeedInput): string[] {
    const step = input.stepMs ?? DEFAULT_STEP_MS;
    const first =
      input.timestamp !== undefined
        ? this.stampOf(input.timestamp)
        : input.startAt !== undefined
          ? this.stampOf(input.startAt)
          : this.now() - (input.count - 1) * step;
    const keys: string[] = [];
    for (let index = 0; index < input.count; index += 1) {
      this.made += 1;
      const stampMs = input.timestamp !== undefined ? first : first + index * step;
      const { property, media } = makeRecord(this.random, this.made, stampMs, { status: input.status, photos: input.photos });
      this.byKey.set(property.ListingKey, { property, media, modifiedMs: stampMs });
      this.events.append('Property', property.ListingKey);
      for (const photo of media) this.events.append('Media', photo.MediaKey);
      keys.push(property.ListingKey);
    }
    this.changed();
    return keys;
  }

  /** Changes members of records (default: ListPrice + 1000, unless members are dropped), drops members, and stamps them. */
  modify(input: ModifyInput): void {
    this.stampEach(input.keys, input.timestamp, (record) => {
      const changes = input.changes ?? (input.drop === undefined ? { ListPrice: record.property.ListPrice + 1000 } : {});
      Object.assign(record.property, changes);
      for (const member of input.drop ?? []) delete (record.property as unknown as Record<string, unknown>)[member];
    });
  }

  /** Sets StandardStatus (Withdrawn, Expired, Canceled, Delete, ...) and stamps the records. */
  setStatus(input: SetStatusInput): void {
    this.stampEach(input.keys, input.timestamp, (record) => {
      record.property.StandardStatus = input.status;
    });
  }

  /** MlgCanView=false: the record may no longer be shown (MLS Grid's soft removal). */
  hide(input: StampedKeysInput): void {
    this.stampEach(input.keys, input.timestamp, (record) => {
      record.property.MlgCanView = false;
    });
  }

  /** Removes records outright: they vanish from every pull, which only a sweep notices. */
  remove(input: { keys: string[] }): void {
    this.requireKnown(input.keys);
    for (const key of input.keys) {
      this.byKey.delete(key);
      this.events.append('Property', key);
    }
    this.changed();
  }

  /** Replaces the photos of records; PhotosChangeTimestamp moves, ModificationTimestamp too unless `touch` is false. */
  setMedia(input: SetMediaInput): void {
    this.requireKnown(input.keys);
    const stampMs = input.timestamp === undefined ? this.now() : this.stampOf(input.timestamp);
    for (const key of input.keys) {
      const record = this.byKey.get(key) as StoredRecord;
      const count = input.urls?.length ?? input.photos ?? 0;
      const dropped = record.media;
      record.media = makePhotos(this.random, key, count, stampMs, input.urls);
      // Why a Media event per photo and a Property event only when touched: the reference server
      // logs each Media write under its MediaKey and leaves the Property (and its events) alone.
      for (const photo of [...dropped, ...record.media]) this.events.append('Media', photo.MediaKey);
      if (input.touch !== false) this.events.append('Property', key);
      record.property.PhotosCount = count;
      record.property.PhotosChangeTimestamp = formatStamp(stampMs);
      if (input.touch !== false) this.stamp(record, stampMs);
    }
    this.changed();
  }

  /**
   * One photo of a record changed (`change`: new bytes, its ModificationTimestamp moved) or
   * removed (`remove`), as an MLS edits a photo on its own: the Property keeps its stamp, the
   * Media record's own stamp (or its absence) is what an incremental pull finds.
   */
  editPhoto(input: { key: string; order: number; action: 'change' | 'remove'; timestamp?: string }): void {
    this.requireKnown([input.key]);
    const record = this.byKey.get(input.key) as StoredRecord;
    const photo = record.media.find((item) => item.Order === input.order);
    if (photo === undefined) throw new Error(`record '${input.key}' has no photo of Order ${input.order}`);
    const stampMs = input.timestamp === undefined ? this.now() : this.stampOf(input.timestamp);
    this.events.append('Media', photo.MediaKey);
    if (input.action === 'remove') {
      record.media = record.media.filter((item) => item !== photo);
      record.property.PhotosCount = record.media.length;
      // Why the Property is stamped: a removed Media record leaves nothing for a Media pull to find.
      this.stamp(record, stampMs);
      this.events.append('Property', input.key);
    } else photo.ModificationTimestamp = formatStamp(stampMs);
    record.property.PhotosChangeTimestamp = formatStamp(stampMs);
    this.changed();
  }

  /** Keys of `keys` that name no record. */
  unknownKeys(keys: readonly string[]): string[] {
    return keys.filter((key) => !this.byKey.has(key));
  }

  /** A copy of one record with its photos, or undefined. */
  get(key: string): { property: ResoProperty; media: ResoMedia[] } | undefined {
    const record = this.byKey.get(key);
    return record && { property: { ...record.property }, media: record.media.map((photo) => ({ ...photo })) };
  }

  /** Copies of every record (ListingKey order). */
  list(): { property: ResoProperty; media: ResoMedia[] }[] {
    return [...this.byKey.keys()].sort().flatMap((key) => this.get(key) ?? []);
  }

  get size(): number {
    return this.byKey.size;
  }

  /**
   * Every record sorted by `compare`, cached under `orderKey` until the next change.
   * Why cached: a 100k-record replication asks the same order once per page.
   */
  ordered(orderKey: string, compare: (a: StoredRecord, b: StoredRecord) => number): readonly StoredRecord[] {
    let rows = this.sortedCache.get(orderKey);
    if (rows === undefined) {
      rows = [...this.byKey.values()].sort(compare);
      this.sortedCache.set(orderKey, rows);
    }
    return rows;
  }

  /** Every photo of every record (the Media resource) sorted by `compare`, cached like `ordered`. */
  orderedMedia(orderKey: string, compare: (a: ResoMedia, b: ResoMedia) => number): readonly ResoMedia[] {
    let rows = this.mediaCache.get(orderKey);
    if (rows === undefined) {
      rows = [...this.byKey.values()].flatMap((record) => record.media).sort(compare);
      this.mediaCache.set(orderKey, rows);
    }
    return rows;
  }

  private stampEach(keys: readonly string[], timestamp: string | undefined, change: (record: StoredRecord) => void): void {
    this.requireKnown(keys);
    const stampMs = timestamp === undefined ? this.now() : this.stampOf(timestamp);
    for (const key of keys) {
      const record = this.byKey.get(key) as StoredRecord;
      change(record);
      this.stamp(record, stampMs);
      this.events.append('Property', key);
    }
    this.changed();
  }

  private stamp(record: StoredRecord, stampMs: number): void {
    record.modifiedMs = stampMs;
    record.property.ModificationTimestamp = formatStamp(stampMs);
  }

  private stampOf(timestamp: string): number {
    const instant = parseInstant(timestamp);
    if (instant === undefined || instant.ticks !== 0) throw new Error(`not a millisecond ISO 8601 timestamp: '${timestamp}'`);
    return instant.ms;
  }

  private requireKnown(keys: readonly string[]): void {
    const unknown = this.unknownKeys(keys);
    if (unknown.length > 0) throw new Error(`no record with ListingKey ${unknown.map((key) => `'${key}'`).join(', ')}`);
  }

  private changed(): void {
    this.sortedCache = new Map();
    this.mediaCache = new Map();
  }
}
