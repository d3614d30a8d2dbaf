/**
 * What a replication takes from a server's `$metadata` (CSDL XML): entity sets with their keys,
 * fields and lookup names; the key and stamp fields a pull pages by (the Data Dictionary's names
 * where the server declares none); and the server's own lookup values turned into standard ones.
 */
import { describe, expect, it } from 'vitest';
import { translateLookups } from '../../src/feed/reso-api/lookups.js';
import { DD_FIELDS, replicationFields } from '../../src/feed/reso-api/replication-fields.js';
import { parseMetadata, type ServiceMetadata } from '../../src/feed/reso-api/service-metadata.js';
import { serviceRootOf, sourceMetadataSchema } from '../../src/feed/reso-api/source-metadata.js';

const csdl = (types: string, sets: string): string =>
  '<?xml version="1.0"?><edmx:Edmx xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx" Version="4.0"><edmx:DataServices>' +
  `<Schema Namespace="org.reso.metadata">${types}<EntityContainer Name="C">${sets}</EntityContainer></Schema>` +
  '</edmx:DataServices></edmx:Edmx>';

const PROPERTY_TYPE =
  '<EntityType Name="PropertyType"><Key><PropertyRef Name="ListingNumber" /></Key>' +
  '<Property Nullable="false" Name="ListingNumber" Type="Edm.String"/>' +
  '<Property Name="ListingModificationTimestamp" Type="Edm.DateTimeOffset" Precision="27"/>' +
  '<Property Name="StandardStatus" Type="Edm.String"><Annotation Term="RESO.OData.Metadata.LookupName" String="StandardStatus"/></Property>' +
  '<Property Name="AssociationFeeFrequency" Type="Edm.String">' +
  '<Annotation Term="Core.Description" String="how often"/><Annotation Term="RESO.OData.Metadata.LookupName" String="FeeFrequency"/></Property>' +
  '<NavigationProperty Name="Media" Type="Collection(org.reso.metadata.Media)"/>' +
  '</EntityType>';
const MEDIA_TYPE =
  '<EntityType Name="Media"><Key><PropertyRef Name="MediaKey"/></Key><Property Name="MediaKey" Type="Edm.String"/>' +
  '<Property Name="ModificationTimestamp" Type="Edm.DateTimeOffset"/></EntityType>';

describe('parseMetadata', () => {
  const metadata = parseMetadata(
    csdl(
      PROPERTY_TYPE + MEDIA_TYPE,
      '<EntitySet Name="Property" EntityType="org.reso.metadata.PropertyType"/><EntitySet EntityType="org.reso.metadata.Media" Name="Media"></EntitySet>',
    ),
  );

  it('names each entity set with its type key, fields (attributes in any order) and lookup names; navigation is no field', () => {
    expect(metadata.resources.Property).toEqual({
      key: 'ListingNumber',
      fields: {
        ListingNumber: 'Edm.String',
        ListingModificationTimestamp: 'Edm.DateTimeOffset',
        StandardStatus: 'Edm.String',
        AssociationFeeFrequency: 'Edm.String',
      },
      lookupNames: { StandardStatus: 'StandardStatus', AssociationFeeFrequency: 'FeeFrequency' },
    });
    expect(metadata.resources.Media?.key).toBe('MediaKey');
    expect(sourceMetadataSchema.safeParse({ metadata }).success).toBe(true);
  });

  it('takes the key from PropertyRef and a stamp ending in ModificationTimestamp; DD names without metadata', () => {
    expect(replicationFields(metadata)).toEqual({
      key: 'ListingNumber',
      timestamp: 'ListingModificationTimestamp',
      mediaKey: 'MediaKey',
      mediaTimestamp: 'ModificationTimestamp',
    });
    expect(replicationFields(undefined)).toEqual(DD_FIELDS);
  });

  it('keeps the DD stamp name when two fields could be it, and asks PhotosChangeTimestamp only where declared', () => {
    const two: ServiceMetadata = {
      resources: {
        Property: {
          key: 'ListingKey',
          fields: {
            ListingKey: 'Edm.String',
            OriginalModificationTimestamp: 'Edm.DateTimeOffset',
            MajorChangeModificationTimestamp: 'Edm.DateTimeOffset',
            PhotosChangeTimestamp: 'Edm.DateTimeOffset',
          },
        },
      },
    };
    expect(replicationFields(two)).toMatchObject({
      key: 'ListingKey',
      timestamp: 'ModificationTimestamp',
      photosChange: 'PhotosChangeTimestamp',
    });
    expect(replicationFields(metadata).photosChange).toBeUndefined();
  });
});

describe('translateLookups', () => {
  it("turns a server's own values into standard ones, in lists too, and leaves others (and object member names) alone", () => {
    const records = [
      { AssociationFeeFrequency: 'Every Month', Features: ['Pool Area', 'Garden'], StandardStatus: 'Active' },
      { AssociationFeeFrequency: 'constructor', Features: 'Pool Area' },
    ];
    translateLookups(records, { AssociationFeeFrequency: { 'Every Month': 'Monthly' }, Features: { 'Pool Area': 'Pool' } });
    expect(records).toEqual([
      { AssociationFeeFrequency: 'Monthly', Features: ['Pool', 'Garden'], StandardStatus: 'Active' },
      { AssociationFeeFrequency: 'constructor', Features: 'Pool' },
    ]);
  });
});

describe('serviceRootOf', () => {
  it('is the URL without the resource, credentials, query or fragment', () => {
    expect(serviceRootOf('https://u:p@mls.example/odata/Property?$filter=City%20eq%20%27X%27#x')).toBe('https://mls.example/odata');
  });
});
