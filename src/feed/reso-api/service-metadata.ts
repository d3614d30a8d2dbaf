/**
 * A RESO server's `$metadata` (OData CSDL XML), read once at the start of a replication: each
 * resource's key and fields, so `$select` names only fields the server has, a mapping that needs a
 * missing field is refused before the pull, and photo changes are asked by PhotosChangeTimestamp
 * only where Property has it. A server that publishes none is replicated as before, unchecked.
 */
import type { Logger } from '../../runtime/logger.js';
import { displaySource } from '../feed-source.js';
import { refusedStatus } from './reso-errors.js';

export interface ResourceMetadata {
  /** The EntityType's key (ListingKey, MediaKey). */
  key: string;
  /** Field name → Edm type. */
  fields: ReadonlyMap<string, string>;
}

export type ServiceMetadata = ReadonlyMap<string, ResourceMetadata>;

const ENTITY_TYPE = /<EntityType\s+Name="([^"]+)"[^>]*>([\s\S]*?)<\/EntityType>/g;
const KEY_REF = /<Key>\s*<PropertyRef\s+Name="([^"]+)"/;
const FIELD = /<Property\s+Name="([^"]+)"\s+Type="([^"]+)"/g;

/** The entity types of a CSDL XML document (no DTD, no entities: it is matched, never expanded). */
export function parseMetadata(xml: string): ServiceMetadata {
  const resources = new Map<string, ResourceMetadata>();
  for (const [, name = '', body = ''] of xml.matchAll(ENTITY_TYPE)) {
    const key = KEY_REF.exec(body)?.[1];
    if (key === undefined) continue;
    resources.set(name, { key, fields: new Map([...body.matchAll(FIELD)].map(([, field = '', type = '']) => [field, type])) });
  }
  return resources;
}

/** The `$metadata` document beside a resource URL (…/odata/Property → …/odata/$metadata), keeping its query string. */
export function metadataUrlOf(resourceUrl: string): string {
  const url = new URL(resourceUrl);
  url.pathname = url.pathname.replace(/[^/]*$/, '$metadata');
  return url.href;
}

export interface MetadataSource {
  getText(url: string, request: { accept: string }): Promise<string>;
}

/**
 * Reads the metadata; undefined when the server has none for this URL (404, 400, 501) or it names
 * no Property, so replication goes on unchecked. Other failures (auth, 5xx past the retries) are thrown.
 */
export async function readMetadata(source: MetadataSource, resourceUrl: string, logger?: Logger): Promise<ServiceMetadata | undefined> {
  const url = metadataUrlOf(resourceUrl);
  let xml: string;
  try {
    xml = await source.getText(url, { accept: 'application/xml' });
  } catch (thrown) {
    const status = refusedStatus(thrown);
    if (status === undefined) throw thrown;
    logger?.info({ where: displaySource(url), status }, 'feed server publishes no $metadata; fields are not checked');
    return undefined;
  }
  const metadata = parseMetadata(xml);
  return metadata.has('Property') ? metadata : undefined;
}
