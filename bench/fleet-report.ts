/** The bench:fleet section: one source fanned out to N chatbots, against the 1-chatbot run as baseline. */
import { fixed, ratioText, sectionBody, type SectionHead } from './benchmarks-md.js';

export interface FleetRound {
  chatbots: number;
  /** Requests the RESO simulator answered for the whole fan-out (token requests excluded). */
  requests: number;
  recordsServed: number;
  /** `fleet run --dry-run` spawn → exit. */
  wallMs: number;
  peakRssMiB: number;
}

export interface FleetBench extends SectionHead {
  records: number;
  maxTop: number;
  rounds: FleetRound[];
}

export function fleetSection(bench: FleetBench): string {
  const base = bench.rounds[0];
  const minimal = Math.ceil(bench.records / bench.maxTop);
  const rows = bench.rounds.map((round) => {
    // Why the marginal time too: the whole command's time holds the process start and the pull, paid once.
    const marginal =
      base === undefined || round.chatbots === base.chatbots
        ? '-'
        : fixed((round.wallMs - base.wallMs) / (round.chatbots - base.chatbots), 0);
    return [
      round.chatbots,
      round.requests,
      ratioText(round.requests, base?.requests ?? 0),
      (base?.requests ?? 0) * round.chatbots,
      round.recordsServed,
      fixed(round.wallMs / 1000),
      fixed(round.wallMs / round.chatbots, 0),
      marginal,
      round.peakRssMiB,
    ];
  });
  return sectionBody(bench, [
    `One replicated fleet source of ${bench.records} records (the RESO simulator, pages of ${bench.maxTop}: ${minimal} requests ` +
      'minimal) fanned out by `fleet run SOURCE --dry-run` to N new chatbots, each keeping one city of six. Every chatbot is new, ' +
      'so each run is a full pull; the baseline is the 1-chatbot run. "Alone" = N × the baseline (each chatbot pulling for itself); ' +
      'time per chatbot = spawn to exit ÷ N; ms per added chatbot = (wall − baseline wall) ÷ (N − 1).',
    {
      head: [
        'chatbots',
        'requests to the source',
        '× baseline',
        'requests if each pulled alone',
        'records served',
        'wall s',
        'ms per chatbot',
        'ms per added chatbot',
        'peak RSS MiB',
      ],
      align: ['r'],
      rows,
    },
  ]);
}
