/**
 * A RESO server's `$metadata` (OData CSDL XML): each entity set's key (`<Key><PropertyRef>`),
 * its declared properties with their types, and the RESO lookup each string field draws its values
 * from (`RESO.OData.Metadata.LookupName`). Plain JSON, so it is kept in Redis as it is
 * (source-metadata.ts). Matched, never expanded: no DTD, no entities.
 */
import type { Logger } from '../../runtime/logger.js';
import { displaySource } from '../feed-source.js';
import { refusedStatus } from './reso-errors.js';

export interface ResourceMetadata {
  /** The EntityType's key (ListingKey, MediaKey). */
  key: string;
  /** Field name → Edm type (or the enum type's name). */
  fields: Readonly<Record<string, string>>;
  /** Field name → the lookup its values come from (the RESO.OData.Metadata.LookupName annotation). */
  lookupNames?: Readonly<Record<string, string>>;
}

export interface ServiceMetadata {
  /** By entity set name (Property, Media, Lookup…); the type's name where the document declares no sets. */
  resources: Readonly<Record<string, ResourceMetadata>>;
}

/** The largest `$metadata` read: a full RESO Data Dictionary 2.0 document with its enums is a few MB. */
export const METADATA_MAX_BYTES = 32 * 1024 * 1024;

const ENTITY_TYPE = /<EntityType\b([^>]*)>([\s\S]*?)<\/EntityType>/g;
const KEY_REF = /<Key>\s*<PropertyRef\b([^>]*?)\/?>/;
const PROPERTY = /<Property\b([^>]*?)(?:\/>|>([\s\S]*?)<\/Property>)/g;
const LOOKUP_NAME = /<Annotation\b[^>]*Term="RESO\.OData\.Metadata\.LookupName"[^>]*>/;
const ENTITY_SET = /<EntitySet\b([^>]*?)\/?>/g;
const ATTRIBUTE = /([\w.:]+)="([^"]*)"/g;

const attributes = (text: string): Record<string, string> =>
  Object.fromEntries([...text.matchAll(ATTRIBUTE)].map(([, name = '', value = '']) => [name, value]));

/** The last dotted segment: `org.reso.metadata.Property` → `Property`. */
const localName = (qualified: string): string => qualified.slice(qualified.lastIndexOf('.') + 1);

function entityTypeOf(body: string): ResourceMetadata | undefined {
  const keyRef = KEY_REF.exec(body);
  const key = keyRef === null ? undefined : attributes(keyRef[1] ?? '').Name;
  if (key === undefined) return undefined;
  const fields: Record<string, string> = {};
  const lookupNames: Record<string, string> = {};
  for (const [, head = '', inner = ''] of body.matchAll(PROPERTY)) {
    const { Name: name, Type: type } = attributes(head);
    if (name === undefined || type === undefined) continue;
    fields[name] = type;
    const annotation = LOOKUP_NAME.exec(inner);
    const lookup = annotation === null ? undefined : attributes(annotation[0]).String;
    if (lookup !== undefined) lookupNames[name] = lookup;
  }
  return { key, fields, ...(Object.keys(lookupNames).length === 0 ? {} : { lookupNames }) };
}

/** The entity sets of a CSDL XML document, each with its type's key and fields. */
export function parseMetadata(xml: string): ServiceMetadata {
  const types = new Map<string, ResourceMetadata>();
  for (const [, head = '', body = ''] of xml.matchAll(ENTITY_TYPE)) {
    const name = attributes(head).Name;
    const type = entityTypeOf(body);
    if (name !== undefined && type !== undefined) types.set(name, type);
  }
  const resources: Record<string, ResourceMetadata> = {};
  for (const [, head = ''] of xml.matchAll(ENTITY_SET)) {
    const { Name: name, EntityType: type } = attributes(head);
    const resource = type === undefined ? undefined : types.get(localName(type));
    if (name !== undefined && resource !== undefined) resources[name] = resource;
  }
  if (Object.keys(resources).length === 0) for (const [name, resource] of types) resources[name] = resource;
  return { resources };
}

/** A resource of the metadata, by entity set name. */
export function resourceOf(metadata: ServiceMetadata | undefined, name: string): ResourceMetadata | undefined {
  return metadata !== undefined && Object.hasOwn(metadata.resources, name) ? metadata.resources[name] : undefined;
}

/** Whether `resource` declares `field`. */
export function declares(resource: ResourceMetadata, field: string): boolean {
  return Object.hasOwn(resource.fields, field);
}

/** The `$metadata` document beside a resource URL (…/odata/Property → …/odata/$metadata), keeping its query string. */
export function metadataUrlOf(resourceUrl: string): string {
  const url = new URL(resourceUrl);
  url.pathname = url.pathname.replace(/[^/]*$/, '$metadata');
  return url.href;
}

export interface MetadataSource {
  getText(url: string, request: { accept: string; maxBytes?: number; tooLargeHint?: string }): Promise<string>;
}

/**
 * Reads the metadata; undefined when the server has none for this URL (404, 400, 501) or it names
 * no Property: replication then uses the Data Dictionary 2.0 names, unchecked. Other failures
 * (auth, 5xx past the retries, a document over METADATA_MAX_BYTES) are thrown.
 */
export async function readMetadata(source: MetadataSource, resourceUrl: string, logger?: Logger): Promise<ServiceMetadata | undefined> {
  const url = metadataUrlOf(resourceUrl);
  let xml: string;
  try {
    xml = await source.getText(url, {
      accept: 'application/xml',
      maxBytes: METADATA_MAX_BYTES,
      tooLargeHint: `A RESO $metadata document is a few MB; check that ${displaySource(url)} is the server's $metadata.`,
    });
  } catch (thrown) {
    const status = refusedStatus(thrown);
    if (status === undefined) throw thrown;
    logger?.info({ where: displaySource(url), status }, 'feed server publishes no $metadata; using the Data Dictionary 2.0 field names');
    return undefined;
  }
  const metadata = parseMetadata(xml);
  return resourceOf(metadata, 'Property') === undefined ? undefined : metadata;
}

/** The fields Property declares, for a check of the names a mapping reads; undefined without metadata (nothing to check). */
export function propertyFields(metadata: ServiceMetadata | undefined): { has(name: string): boolean } | undefined {
  const property = resourceOf(metadata, 'Property');
  return property === undefined ? undefined : { has: (name) => declares(property, name) };
}
