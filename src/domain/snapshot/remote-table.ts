/**
 * A whole chatbot's remote listings in columns (see RemoteTableBuilder for why), read by
 * position through the RemoteRows interface.
 */
import { fieldsHeldAs, type FieldsHeldAs } from '../listing-fields.js';
import type { ListingFields, SyncKeyType } from '../listing.js';
import type { RemoteListing, RemoteRows } from './remote.js';
import { CodedColumn, ListColumn, NumberColumn, TextBytesColumn, ValueColumn } from './remote-columns.js';

type Fields = Partial<ListingFields>;
// Which fields go in which kind of column is the field table's (domain/listing-fields.ts).
type TextField = FieldsHeldAs<'text'>;
type BytesField = FieldsHeldAs<'bytes'>;
type CodedField = FieldsHeldAs<'coded'>;
type NumberField = FieldsHeldAs<'number'>;
type ListField = FieldsHeldAs<'list'>;

const TEXT_FIELDS = fieldsHeldAs('text');
const BYTES_FIELDS = fieldsHeldAs('bytes');
const CODED_FIELDS = fieldsHeldAs('coded');
const NUMBER_FIELDS = fieldsHeldAs('number');
const LIST_FIELDS = fieldsHeldAs('list');

/**
 * Collects remote listings into columns, one listing at a time (so each page's objects can be
 * collected while the next page is read). Why columns: a normalised listing as an object costs
 * ~580 bytes (wrapper, id string, a 24-property object, boxed doubles, two empty arrays, its own
 * copy of every repeated string); in columns it costs its unique text as UTF-8 bytes (the MLS
 * number as a string), 2 bytes per repeated text field, 4 per integer field. A RemoteListing is built again only when
 * asked for (RemoteTable.fields).
 */
export class RemoteTableBuilder {
  private rows = 0;
  private ids: Float64Array;
  /** Ids that are not a plain safe integer in canonical form, by row. */
  private readonly oddIds = new Map<number, string>();
  private readonly columns = newColumns();

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
    const { text, bytes, coded, numbers, lists } = this.columns;
    const capacity = Math.max(this.expected, this.ids.length);
    const textOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
    for (const field of TEXT_FIELDS) text[field].set(row, textOf(fields[field]));
    for (const field of BYTES_FIELDS) bytes[field].set(row, textOf(fields[field]), capacity);
    for (const field of CODED_FIELDS) coded[field].set(row, textOf(fields[field]), capacity);
    for (const field of NUMBER_FIELDS) {
      const value = fields[field];
      numbers[field].set(row, typeof value === 'number' ? value : undefined, capacity);
    }
    for (const field of LIST_FIELDS) {
      const value = fields[field];
      lists[field].set(row, Array.isArray(value) ? (value as readonly unknown[]) : undefined, capacity);
    }
    return row;
  }

  /** The rows in `order` (default: as added), as a table. */
  build(order?: Uint32Array): RemoteTable {
    return new RemoteTable(this.rows, this.ids, this.oddIds, this.columns, order);
  }
}

interface Columns {
  /** Text columns with one value per listing: the MLS number as strings, the others as bytes. */
  text: Record<TextField, ValueColumn<string>>;
  bytes: Record<BytesField, TextBytesColumn>;
  coded: Record<CodedField, CodedColumn>;
  numbers: Record<NumberField, NumberColumn>;
  lists: Record<ListField, ListColumn<unknown>>;
}

function newColumns(): Columns {
  const text = Object.fromEntries(TEXT_FIELDS.map((field) => [field, new ValueColumn<string>()])) as Columns['text'];
  const bytes = Object.fromEntries(BYTES_FIELDS.map((field) => [field, new TextBytesColumn()])) as Columns['bytes'];
  const coded = Object.fromEntries(CODED_FIELDS.map((field) => [field, new CodedColumn()])) as Columns['coded'];
  const numbers = Object.fromEntries(NUMBER_FIELDS.map((field) => [field, new NumberColumn()])) as Columns['numbers'];
  const lists = Object.fromEntries(LIST_FIELDS.map((field) => [field, new ListColumn<unknown>()])) as Columns['lists'];
  return { text, bytes, coded, numbers, lists };
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
    const value = keyType === 'MLSNumber' ? this.columns.text.MLSNumber.get(row) : this.columns.bytes.Url.get(row);
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
    const { text: t, bytes: b, coded: c, numbers: n, lists: l } = this.columns;
    const f: Fields = {};
    let s: string | undefined;
    let x: number | undefined;
    if ((s = c.CurrencySymbol.get(row)) !== undefined) f.CurrencySymbol = s;
    if ((s = c.PropertyType.get(row)) !== undefined) f.PropertyType = s;
    if ((s = b.Url.get(row)) !== undefined) f.Url = s;
    if ((s = t.MLSNumber.get(row)) !== undefined) f.MLSNumber = s;
    if ((s = b.Description.get(row)) !== undefined) f.Description = s;
    if ((s = b.Address.get(row)) !== undefined) f.Address = s;
    if ((s = c.City.get(row)) !== undefined) f.City = s;
    if ((s = c.State.get(row)) !== undefined) f.State = s;
    if ((s = c.ZIP.get(row)) !== undefined) f.ZIP = s;
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
    if ((s = c.SaleType.get(row)) !== undefined) f.SaleType = s as ListingFields['SaleType'];
    if ((s = c.Status.get(row)) !== undefined) f.Status = s as ListingFields['Status'];
    if ((s = c.Tours.get(row)) !== undefined) f.Tours = s as NonNullable<ListingFields['Tours']>;
    if ((s = c.SpaceType.get(row)) !== undefined) f.SpaceType = s as NonNullable<ListingFields['SpaceType']>;
    const images = l.Images.get(row);
    if (images !== undefined) f.Images = images as string[];
    const extensions = l.ExtensionColumn.get(row);
    if (extensions !== undefined) f.ExtensionColumn = extensions as NonNullable<ListingFields['ExtensionColumn']>;
    if ((x = n.Latitude.get(row)) !== undefined) f.Latitude = x;
    if ((x = n.Longitude.get(row)) !== undefined) f.Longitude = x;
    if ((s = c.AreaUnit.get(row)) !== undefined) f.AreaUnit = s as ListingFields['AreaUnit'];
    if ((s = b.Location.get(row)) !== undefined) f.Location = s;
    return f;
  }
}
