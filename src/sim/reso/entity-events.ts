/**
 * The EntityEvent log (RESO RCP-027) as the RESO reference server keeps it: every insert, update
 * and delete of any resource appends one event `{ EntityEventSequence, ResourceName,
 * ResourceRecordKey }` with the next sequence (strictly increasing, from 1). There is no event
 * type: a delete looks like an update, and a client learns which it was by reading the record.
 * Compaction keeps only the latest event per (ResourceName, ResourceRecordKey), so sequences get
 * gaps; a purge drops old history (retention), after which a client whose cursor lies before the
 * oldest retained event has lost events and must resync in full.
 */

export interface EntityEvent {
  EntityEventSequence: number;
  ResourceName: 'Property' | 'Media';
  ResourceRecordKey: string;
  ResourceRecordUrl: null;
}

export class EntityEventLog {
  private events: EntityEvent[] = [];
  private last = 0;

  append(resource: EntityEvent['ResourceName'], key: string): void {
    this.last += 1;
    this.events.push({ EntityEventSequence: this.last, ResourceName: resource, ResourceRecordKey: key, ResourceRecordUrl: null });
  }

  /** Every retained event, in sequence order (copies). */
  list(): EntityEvent[] {
    return this.events.map((event) => ({ ...event }));
  }

  /** The retained events, in sequence order, for the resource view (not copied: read-only use). */
  rows(): readonly EntityEvent[] {
    return this.events;
  }

  /** The largest sequence ever given (0 before the first event), retained or not. */
  get lastSequence(): number {
    return this.last;
  }

  /** Keeps the latest event per record, as the reference server's hourly compaction does; returns how many were dropped. */
  compact(): number {
    const latest = new Map<string, number>();
    for (const event of this.events) latest.set(`${event.ResourceName}\n${event.ResourceRecordKey}`, event.EntityEventSequence);
    const before = this.events.length;
    this.events = this.events.filter(
      (event) => latest.get(`${event.ResourceName}\n${event.ResourceRecordKey}`) === event.EntityEventSequence,
    );
    return before - this.events.length;
  }

  /** Drops every event below `below` (retention); returns how many were dropped. */
  purge(below: number): number {
    const before = this.events.length;
    this.events = this.events.filter((event) => event.EntityEventSequence >= below);
    return before - this.events.length;
  }
}
