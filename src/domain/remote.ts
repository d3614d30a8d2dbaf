/**
 * A listing as read back from the service (RealEstateList), after the api normaliser turned the
 * read shape (strings, loose forms) into the write shape's types. Only the fields the read
 * shape can show are present: a field absent here was not returned, not "empty".
 *
 * A whole chatbot's listings are held in a RemoteTable (columns, not one object per listing):
 * see RemoteTableBuilder for why.
 */
import type { ListingFields, SyncKeyType } from './listing.js';

export interface RemoteListing {
  /** The service-issued id (NewOaks key), as a string. */
  id: string;
  fields: Partial<ListingFields>;
}

/** What a sync read from the service for one chatbot. */
export interface RemoteSnapshot {
  chatbot: string;
  /** Every remote listing read, by position in service order (a RemoteTable from readRemoteSnapshot). */
  rows: RemoteRows;
  /** VirtualCount as first reported. */
  virtualCount: number;
  /** True when items read = VirtualCount, no page failed, no drift and no key on two pages. */
  complete: boolean;
  /** Why the snapshot is incomplete (empty when complete). */
  incompleteReasons: string[];
}

/** The key of a listing's fields under a key type, trimmed; '' when it has none. */
export function keyOfFields(fields: Partial<ListingFields>, keyType: SyncKeyType): string {
  const value = keyType === 'MLSNumber' ? fields.MLSNumber : fields.Url;
  return typeof value === 'string' ? value.trim() : '';
}

/** Read access to remote listings by position; fields are built on demand. */
export interface RemoteRows {
  readonly length: number;
  id(position: number): string;
  /** The key under a key type, trimmed; '' when it has none. */
  key(position: number, keyType: SyncKeyType): string;
  fields(position: number): Partial<ListingFields>;
}

type Fields = Partial<ListingFields>;
type TextField = 'CurrencySymbol' | 'PropertyType' | 'Url' | 'MLSNumber' | 'Description' | 'Address' | 'City' | 'State' | 'ZIP' | 'SaleType' | 'Status' | 'Tours' | 'SpaceType' | 'AreaUnit' | 'Location';
type NumberField = 'Bedrooms' | 'Bathrooms' | 'YearBuilt' | 'DaysOnMarket' | 'LotArea' | 'BuildingArea' | 'ParkingSpots' | 'SalePrice' | 'RentPrice' | 'UnitAreaPrice' | 'HOAMonth' | 'ZestimatePrice' | 'DepositFee' | 'Latitude' | 'Longitude';
type ListField = 'Images' | 'ExtensionColumn';

const TEXT_FIELDS: readonly TextField[] = ['CurrencySymbol', 'PropertyType', 'Url', 'MLSNumber', 'Description', 'Address', 'City', 'State', 'ZIP', 'SaleType', 'Status', 'Tours', 'SpaceType', 'AreaUnit', 'Location'];
const NUMBER_FIELDS: readonly NumberField[] = ['Bedrooms', 'Bathrooms', 'YearBuilt', 'DaysOnMarket', 'LotArea', 'BuildingArea', 'ParkingSpots', 'SalePrice', 'RentPrice', 'UnitAreaPrice', 'HOAMonth', 'ZestimatePrice', 'DepositFee', 'Latitude', 'Longitude'];
const LIST_FIELDS: readonly ListField[] = ['Images', 'ExtensionColumn'];
/** Few distinct values across a chatbot: one shared string per value instead of one per listing. */
const INTERNED: ReadonlySet<TextField> = new Set<TextField>(['CurrencySymbol', 'PropertyType', 'City', 'State', 'ZIP', 'SaleType', 'Status', 'Tours', 'SpaceType', 'AreaUnit']);
const MAX_INTERNED_VALUES = 4096;
/** Stands for an empty list: the field was shown (and is compared) but held nothing. */
const EMPTY_LIST: readonly unknown[] = Object.freeze([]);

/** A column of plain values, allocated on its first present value (undefined = absent). */
class ValueColumn<T> {
  values: Array<T | undefined> | undefined;
  set(row: number, value: T | undefined): void {
    if (value === undefined && this.values === undefined) return;
    this.values ??= new Array<T | undefined>(row).fill(undefined);
    while (this.values.length < row) this.values.push(undefined);
    this.values.push(value);
  }
  get(row: number): T | undefined {
    return this.values?.[row];
  }
}

/** A column of numbers, NaN = absent (remote numbers are always finite). */
class NumberColumn {
  values: Float64Array | undefined;
  set(row: number, value: number | undefined, capacity: number): void {
    if (value === undefined) return;
    if (this.values === undefined) this.values = new Float64Array(capacity).fill(Number.NaN);
    else if (row >= this.values.length) {
      const grown = new Float64Array(Math.max(capacity, Math.ceil(this.values.length * 1.5))).fill(Number.NaN);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[row] = value;
  }
  get(row: number): number | undefined {
    const value = this.values?.[row];
    return value === undefined || Number.isNaN(value) ? undefined : value;
  }
}

/**
 * Collects remote listings into columns, one listing at a time (so each page's objects can be
 * collected while the next page is read). Why columns: a normalised listing as an object costs
 * ~580 bytes (wrapper, id string, a 24-property object, boxed doubles, two empty arrays, its own
 * copy of every repeated string); in columns it costs the column slots, shared repeated strings
 * and its unique strings. A RemoteListing is built again only when asked for (fieldsAt).
 */
export class RemoteTableBuilder {
  private rows = 0;
  private ids: Float64Array;
  /** Ids that are not a plain safe integer in canonical form, by row. */
  private readonly oddIds = new Map<number, string>();
  private readonly columns = newColumns();
  private readonly interned = new Map<string, string>();

  /** `expected`: the listing count when known (VirtualCount); the columns grow past it if needed. */
  constructor(private readonly expected = 1024) {
    this.ids = new Float64Array(Math.max(16, expected));
  }

  /** Appends a listing; returns its row. */
  add(listing: RemoteListing): number {
    const row = this.rows++;
    if (row >= this.ids.length) {
      const grown = new Float64Array(Math.ceil(this.ids.length * 1.5));
      grown.set(this.ids);
      this.ids = grown;
    }
    const numeric = Number(listing.id);
    if (Number.isSafeInteger(numeric) && String(numeric) === listing.id) this.ids[row] = numeric;
    else {
      this.ids[row] = Number.NaN;
      this.oddIds.set(row, listing.id);
    }
    const fields = listing.fields as Readonly<Record<string, unknown>>;
    const { text, numbers, lists } = this.columns;
    for (const field of TEXT_FIELDS) text[field].set(row, this.share(field, fields[field]));
    const capacity = Math.max(this.expected, this.ids.length);
    for (const field of NUMBER_FIELDS) {
      const value = fields[field];
      numbers[field].set(row, typeof value === 'number' ? value : undefined, capacity);
    }
    for (const field of LIST_FIELDS) {
      const value = fields[field];
      lists[field].set(row, Array.isArray(value) ? (value.length === 0 ? EMPTY_LIST : value) : undefined);
    }
    return row;
  }

  private share(field: TextField, value: unknown): string | undefined {
    if (typeof value !== 'string') return undefined;
    if (!INTERNED.has(field)) return value;
    const known = this.interned.get(value);
    if (known !== undefined) return known;
    if (this.interned.size < MAX_INTERNED_VALUES) this.interned.set(value, value);
    return value;
  }

  /** The rows in `order` (default: as added), as a table. */
  build(order?: Uint32Array): RemoteTable {
    return new RemoteTable(this.rows, this.ids, this.oddIds, this.columns, order);
  }
}

interface Columns {
  text: Record<TextField, ValueColumn<string>>;
  numbers: Record<NumberField, NumberColumn>;
  lists: Record<ListField, ValueColumn<readonly unknown[]>>;
}

function newColumns(): Columns {
  const text = Object.fromEntries(TEXT_FIELDS.map((field) => [field, new ValueColumn<string>()])) as Columns['text'];
  const numbers = Object.fromEntries(NUMBER_FIELDS.map((field) => [field, new NumberColumn()])) as Columns['numbers'];
  const lists = Object.fromEntries(LIST_FIELDS.map((field) => [field, new ValueColumn<readonly unknown[]>()])) as Columns['lists'];
  return { text, numbers, lists };
}

/** Remote listings in columns (see RemoteTableBuilder); positions go through `order` when given. */
export class RemoteTable implements RemoteRows {
  readonly length: number;

  constructor(
    rows: number,
    private readonly ids: Float64Array,
    private readonly oddIds: ReadonlyMap<number, string>,
    private readonly columns: Columns,
    private readonly order?: Uint32Array,
  ) {
    this.length = order?.length ?? rows;
  }

  private row(position: number): number {
    return this.order === undefined ? position : (this.order[position] as number);
  }

  id(position: number): string {
    const row = this.row(position);
    return this.oddIds.get(row) ?? String(this.ids[row]);
  }

  key(position: number, keyType: SyncKeyType): string {
    const row = this.row(position);
    const value = keyType === 'MLSNumber' ? this.columns.text.MLSNumber.get(row) : this.columns.text.Url.get(row);
    return value === undefined ? '' : value.trim();
  }

  /**
   * The listing's fields as the normaliser made them (absent stays absent; an empty list is a
   * new empty array). Why written out field by field: named stores in one fixed order give every
   * object V8's fast-property layout (the normaliser's order), which diffListing reads fastest;
   * stores by computed key would make dictionaries.
   */
  fields(position: number): Fields {
    const row = this.row(position);
    const { text: t, numbers: n, lists: l } = this.columns;
    const f: Fields = {};
    let s: string | undefined;
    let x: number | undefined;
    if ((s = t.CurrencySymbol.get(row)) !== undefined) f.CurrencySymbol = s;
    if ((s = t.PropertyType.get(row)) !== undefined) f.PropertyType = s;
    if ((s = t.Url.get(row)) !== undefined) f.Url = s;
    if ((s = t.MLSNumber.get(row)) !== undefined) f.MLSNumber = s;
    if ((s = t.Description.get(row)) !== undefined) f.Description = s;
    if ((s = t.Address.get(row)) !== undefined) f.Address = s;
    if ((s = t.City.get(row)) !== undefined) f.City = s;
    if ((s = t.State.get(row)) !== undefined) f.State = s;
    if ((s = t.ZIP.get(row)) !== undefined) f.ZIP = s;
    if ((x = n.Bedrooms.get(row)) !== undefined) f.Bedrooms = x;
    if ((x = n.Bathrooms.get(row)) !== undefined) f.Bathrooms = x;
    if ((x = n.YearBuilt.get(row)) !== undefined) f.YearBuilt = x;
    if ((x = n.DaysOnMarket.get(row)) !== undefined) f.DaysOnMarket = x;
    if ((x = n.LotArea.get(row)) !== undefined) f.LotArea = x;
    if ((x = n.BuildingArea.get(row)) !== undefined) f.BuildingArea = x;
    if ((x = n.ParkingSpots.get(row)) !== undefined) f.ParkingSpots = x;
    if ((x = n.SalePrice.get(row)) !== undefined) f.SalePrice = x;
    if ((x = n.RentPrice.get(row)) !== undefined) f.RentPrice = x;
    if ((x = n.UnitAreaPrice.get(row)) !== undefined) f.UnitAreaPrice = x;
    if ((x = n.HOAMonth.get(row)) !== undefined) f.HOAMonth = x;
    if ((x = n.ZestimatePrice.get(row)) !== undefined) f.ZestimatePrice = x;
    if ((x = n.DepositFee.get(row)) !== undefined) f.DepositFee = x;
    // The enumerations were checked by the normaliser when the listing was added.
    if ((s = t.SaleType.get(row)) !== undefined) f.SaleType = s as ListingFields['SaleType'];
    if ((s = t.Status.get(row)) !== undefined) f.Status = s as ListingFields['Status'];
    if ((s = t.Tours.get(row)) !== undefined) f.Tours = s as NonNullable<ListingFields['Tours']>;
    if ((s = t.SpaceType.get(row)) !== undefined) f.SpaceType = s as NonNullable<ListingFields['SpaceType']>;
    const images = l.Images.get(row);
    if (images !== undefined) f.Images = images === EMPTY_LIST ? [] : (images as string[]);
    const extensions = l.ExtensionColumn.get(row);
    if (extensions !== undefined) f.ExtensionColumn = extensions === EMPTY_LIST ? [] : (extensions as NonNullable<ListingFields['ExtensionColumn']>);
    if ((x = n.Latitude.get(row)) !== undefined) f.Latitude = x;
    if ((x = n.Longitude.get(row)) !== undefined) f.Longitude = x;
    if ((s = t.AreaUnit.get(row)) !== undefined) f.AreaUnit = s as ListingFields['AreaUnit'];
    if ((s = t.Location.get(row)) !== undefined) f.Location = s;
    return f;
  }
}

/** Position access over a plain array of listings (tests, planSync, one-off callers). */
export function remoteRows(listings: readonly RemoteListing[]): RemoteRows {
  const at = (position: number): RemoteListing => listings[position] as RemoteListing;
  return {
    length: listings.length,
    id: (position) => at(position).id,
    key: (position, keyType) => keyOfFields(at(position).fields, keyType),
    fields: (position) => at(position).fields,
  };
}

/** Every row as a RemoteListing (built on demand: for reports and tests, not for 1M rows). */
export function remoteListingsOf(rows: RemoteRows): RemoteListing[] {
  return Array.from({ length: rows.length }, (_, position) => ({ id: rows.id(position), fields: rows.fields(position) }));
}
