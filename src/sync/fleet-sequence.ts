/**
 * Where an `events: true` fleet source stands in its EntityEvent log (`fleet show`, `sources
 * show`): each chatbot's stored sequence and the source's, the oldest of them, which its next
 * `fleet run` reads the events after (fleet-events.ts). A chatbot with none yet makes that run a
 * full resync.
 */
import type { Fleet } from '../fleet/fleet-model.js';
import type { FeedSourceStore } from '../store/feed-sources.js';
import { oldestSequence } from './fleet-events.js';
import { replicationFeedId } from './replication-ids.js';

export interface FleetSequence {
  source: string;
  /** Each chatbot on the source, by name, with the sequence stored for it (absent: none yet). */
  chatbots: Array<{ chatbot: string; sequence?: number }>;
  /** The source's sequence: the oldest of its chatbots'; absent when one has none (the next run resyncs). */
  sequence?: number;
}

/** The sequence of every `events: true` source of the fleet with a chatbot (of `only` when given: the source of that chatbot). */
export async function fleetSequences(
  fleet: Fleet,
  sources: Pick<FeedSourceStore, 'show'>,
  only?: { chatbot: string },
): Promise<FleetSequence[]> {
  const shown: FleetSequence[] = [];
  for (const [name, source] of Object.entries(fleet.sources).sort(([a], [b]) => a.localeCompare(b))) {
    if (source.events !== true || source.replicate !== true) continue;
    const names = Object.entries(fleet.chatbots)
      .filter(([, chatbot]) => chatbot.source === name)
      .map(([chatbot]) => chatbot)
      .sort();
    if (names.length === 0 || (only !== undefined && !names.includes(only.chatbot))) continue;
    const feedId = replicationFeedId(source.feed);
    const chatbots = await Promise.all(
      names.map(async (chatbot) => {
        const sequence = (await sources.show(chatbot, feedId))?.eventSequence;
        return sequence === undefined ? { chatbot } : { chatbot, sequence };
      }),
    );
    const sequence = oldestSequence(chatbots.map((chatbot) => chatbot.sequence));
    shown.push({ source: name, chatbots, ...(sequence === undefined ? {} : { sequence }) });
  }
  return shown;
}
