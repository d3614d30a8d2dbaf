/**
 * What one RESO service publishes about itself, read at a source's first replication and kept
 * (src/sync/kept-metadata.ts): its `$metadata` (undefined: it has none, and the Data Dictionary
 * 2.0 names are used) and the lookups of its Lookup resource. Plain JSON, checked when read back.
 */
import { z } from 'zod';
import type { Logger } from '../../runtime/logger.js';
import { resourceBeside } from './entity-events.js';
import type { JsonSource } from './keyed-pager.js';
import { readLookups, type LookupTable } from './lookups.js';
import { readMetadata, type MetadataSource, type ServiceMetadata } from './service-metadata.js';

export interface SourceMetadata {
  metadata?: ServiceMetadata;
  lookups?: LookupTable;
}

const names = z.record(z.string(), z.string());

/** The kept form of a SourceMetadata (source-metadata.ts writes it; anything else is read as nothing kept). */
export const sourceMetadataSchema = z.object({
  metadata: z
    .object({ resources: z.record(z.string(), z.object({ key: z.string(), fields: names, lookupNames: names.optional() })) })
    .optional(),
  lookups: z.record(z.string(), names).optional(),
}) satisfies z.ZodType<SourceMetadata>;

/**
 * The service root of a resource URL (…/odata/Property → …/odata), without credentials, query
 * or fragment: what `$metadata` describes, so every resource and query of one server shares it.
 */
export function serviceRootOf(resourceUrl: string): string {
  const url = new URL(resourceUrl);
  return `${url.origin}${url.pathname.replace(/\/[^/]*$/, '')}`;
}

/** Reads the `$metadata` beside `propertyUrl` and, when it declares one, the Lookup resource. */
export async function readSourceMetadata(
  source: MetadataSource & JsonSource,
  propertyUrl: string,
  options: { pageSize: number; logger?: Logger },
): Promise<SourceMetadata> {
  const metadata = await readMetadata(source, propertyUrl, options.logger);
  if (metadata === undefined) return {};
  const lookups = await readLookups(source, {
    lookupUrl: resourceBeside(propertyUrl, 'Lookup'),
    metadata,
    pageSize: options.pageSize,
    ...(options.logger ? { logger: options.logger } : {}),
  });
  return { metadata, ...(lookups === undefined ? {} : { lookups: lookups.table }) };
}
