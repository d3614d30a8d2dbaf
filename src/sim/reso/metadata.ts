/**
 * `GET /odata/$metadata`: the service's CSDL XML document (OData 4.01 CSDL XML), as RESO Web API
 * servers publish it: each resource an EntityType with its Key, each field a Property with its Edm
 * type, and Data Dictionary 2.0 lookups as Edm.String fields annotated with
 * `RESO.OData.Metadata.LookupName` (their values are rows of the Lookup resource). What it
 * declares follows the configuration: Property's key and stamp under the server's own names, the
 * Lookup entity set only where the server has one, and no document at all (404/501) for a server
 * without `$metadata`.
 */
import { renamedFields } from './field-names.js';
import type { ResoAnswer, ResoConfig } from './types.js';

type Field = readonly [name: string, type: string, lookup?: string];

const PROPERTY: readonly Field[] = [
  ['ListingKey', 'Edm.String'],
  ['ListingId', 'Edm.String'],
  ['ModificationTimestamp', 'Edm.DateTimeOffset'],
  ['StandardStatus', 'Edm.String', 'StandardStatus'],
  ['MlgCanView', 'Edm.Boolean'],
  ['ListPrice', 'Edm.Decimal'],
  ['City', 'Edm.String', 'City'],
  ['StateOrProvince', 'Edm.String', 'StateOrProvince'],
  ['PostalCode', 'Edm.String'],
  ['UnparsedAddress', 'Edm.String'],
  ['BedroomsTotal', 'Edm.Int64'],
  ['BathroomsTotalInteger', 'Edm.Int64'],
  ['LivingArea', 'Edm.Decimal'],
  ['LivingAreaUnits', 'Edm.String', 'AreaUnits'],
  ['YearBuilt', 'Edm.Int64'],
  ['PropertyType', 'Edm.String', 'PropertyType'],
  ['PublicRemarks', 'Edm.String'],
  ['Latitude', 'Edm.Decimal'],
  ['Longitude', 'Edm.Decimal'],
  ['PhotosChangeTimestamp', 'Edm.DateTimeOffset'],
  ['PhotosCount', 'Edm.Int64'],
  ['ListingURL', 'Edm.String'],
  ['AssociationFee', 'Edm.Decimal'],
  ['AssociationFeeFrequency', 'Edm.String', 'FeeFrequency'],
];

const MEDIA: readonly Field[] = [
  ['MediaKey', 'Edm.String'],
  ['MediaURL', 'Edm.String'],
  ['Order', 'Edm.Int64'],
  ['ResourceRecordKey', 'Edm.String'],
  ['ResourceName', 'Edm.String', 'ResourceName'],
  ['ModificationTimestamp', 'Edm.DateTimeOffset'],
  ['MediaCategory', 'Edm.String', 'MediaCategory'],
];

const ENTITY_EVENT: readonly Field[] = [
  ['EntityEventSequence', 'Edm.Int64'],
  ['ResourceName', 'Edm.String'],
  ['ResourceRecordKey', 'Edm.String'],
  ['ResourceRecordUrl', 'Edm.String'],
];

const LOOKUP: readonly Field[] = [
  ['LookupKey', 'Edm.String'],
  ['LookupName', 'Edm.String'],
  ['LookupValue', 'Edm.String'],
  ['StandardLookupValue', 'Edm.String'],
  ['LegacyODataValue', 'Edm.String'],
  ['ModificationTimestamp', 'Edm.DateTimeOffset'],
];

function entityType(name: string, key: string, fields: readonly Field[]): string {
  const properties = fields.map(([field, type, lookup]) =>
    lookup === undefined
      ? `<Property Name="${field}" Type="${type}"/>`
      : `<Property Name="${field}" Type="${type}"><Annotation Term="RESO.OData.Metadata.LookupName" String="${lookup}"/></Property>`,
  );
  return `<EntityType Name="${name}"><Key><PropertyRef Name="${key}"/></Key>${properties.join('')}</EntityType>`;
}

type EntitySet = readonly [name: string, key: string, fields: readonly Field[]];

/** The CSDL document of a server configured as `config`. */
function documentOf(config: ResoConfig): string {
  const renamed = renamedFields(config.fieldNames);
  const served = (name: string): string => renamed.get(name) ?? name;
  const property: readonly Field[] = PROPERTY.map(([name, type, lookup]) => [served(name), type, lookup]);
  const sets: EntitySet[] = [
    ['Property', served('ListingKey'), property],
    ['Media', 'MediaKey', MEDIA],
    ['EntityEvent', 'EntityEventSequence', ENTITY_EVENT],
    ...(config.lookups === undefined ? [] : [['Lookup', 'LookupKey', LOOKUP] as const]),
  ];
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    '<edmx:Edmx xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx" Version="4.0"><edmx:DataServices>' +
    '<Schema xmlns="http://docs.oasis-open.org/odata/ns/edm" Namespace="org.reso.metadata">' +
    sets.map(([name, key, fields]) => entityType(name, key, fields)).join('') +
    '<EntityContainer Name="Default">' +
    sets.map(([name]) => `<EntitySet Name="${name}" EntityType="org.reso.metadata.${name}"/>`).join('') +
    '</EntityContainer></Schema></edmx:DataServices></edmx:Edmx>'
  );
}

export function answerMetadata(config: ResoConfig): ResoAnswer {
  if (config.noMetadata !== undefined)
    return {
      status: config.noMetadata,
      body: { error: { code: String(config.noMetadata), message: 'this server publishes no $metadata' } },
    };
  return { status: 200, body: documentOf(config) };
}
