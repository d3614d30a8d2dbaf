/**
 * The EntityEvent resource (RESO RCP-027): the event log read by sequence, paged like Property
 * (server-driven paging, `$count`, `Prefer: odata.maxpagesize`). Filters the reference server
 * answers: `EntityEventSequence` compared with a number, `ResourceName eq '…'`.
 */
import { COMPARE_OPS, type FilterOp } from './filter.js';
import type { ODataQuery, ResourceSpec } from './odata-query.js';
import { answerPage, type PageContext } from './resources.js';
import type { EntityEvent } from './entity-events.js';
import type { ResoAnswer } from './types.js';

export const ENTITY_EVENT_SPEC: ResourceSpec = {
  name: 'EntityEvent',
  key: 'EntityEventSequence',
  filter: {
    EntityEventSequence: { kind: 'number', ops: new Set<FilterOp>(COMPARE_OPS) },
    ResourceName: { kind: 'string', ops: new Set<FilterOp>(['eq', 'in']) },
  },
  orderable: ['EntityEventSequence'],
  defaultOrder: [{ field: 'EntityEventSequence', descending: false }],
  selectable: ['EntityEventSequence', 'ResourceName', 'ResourceRecordKey', 'ResourceRecordUrl'],
  expandable: [],
};

function readEvent(row: EntityEvent, field: string): string | number {
  return field === 'EntityEventSequence' ? row.EntityEventSequence : String(row[field as keyof EntityEvent]);
}

export function answerEntityEvents(rows: readonly EntityEvent[], query: ODataQuery, context: PageContext): ResoAnswer {
  const descending = query.orderBy[0]?.descending === true;
  const page = answerPage<EntityEvent>(
    {
      spec: ENTITY_EVENT_SPEC,
      // The log is kept in sequence order, the only order this resource offers.
      ordered: () => (descending ? [...rows].reverse() : rows),
      read: readEvent,
      project: (row, q) =>
        q.select === undefined ? { ...row } : Object.fromEntries(q.select.map((name) => [name, row[name as keyof EntityEvent]])),
    },
    query,
    context,
  );
  return { ...page, records: 0 };
}
