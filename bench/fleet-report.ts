/** The bench:fleet section of BENCHMARKS.md: one source fanned out to N chatbots, against the 1-chatbot run as baseline. */

export interface FleetRound {
  chatbots: number;
  /** Requests the RESO simulator answered for the whole fan-out (token requests excluded). */
  requests: number;
  recordsServed: number;
  /** `fleet run --dry-run` spawn → exit. */
  wallMs: number;
  peakRssMiB: number;
}

export interface FleetBench {
  command: string;
  machine: string;
  date: string;
  records: number;
  maxTop: number;
  rounds: FleetRound[];
}

const ratio = (value: number, base: number): string => (base > 0 ? `${(value / base).toFixed(2)}×` : '-');

export function fleetSection(bench: FleetBench): string {
  const base = bench.rounds[0];
  const minimal = Math.ceil(bench.records / bench.maxTop);
  const rows = bench.rounds.map((round) => {
    const perChatbot = round.wallMs / round.chatbots;
    const alone = base === undefined ? 0 : base.requests * round.chatbots;
    // Why the marginal time too: the whole command's time holds the process start and the pull, paid once.
    const marginal =
      base === undefined || round.chatbots === base.chatbots
        ? '-'
        : ((round.wallMs - base.wallMs) / (round.chatbots - base.chatbots)).toFixed(0);
    return (
      `| ${round.chatbots} | ${round.requests} | ${ratio(round.requests, base?.requests ?? 0)} | ${alone} | ` +
      `${round.recordsServed} | ${(round.wallMs / 1000).toFixed(2)} | ${perChatbot.toFixed(0)} | ${marginal} | ${round.peakRssMiB} |`
    );
  });
  return [
    `\`${bench.command}\` · ${bench.date} · ${bench.machine}`,
    '',
    `One replicated fleet source of ${bench.records} records (the RESO simulator, pages of ${bench.maxTop}: ${minimal} requests ` +
      'minimal) fanned out by `fleet run SOURCE --dry-run` to N new chatbots, each keeping one city of six (`where: { City }`). ' +
      'Every chatbot is new, so each run is a full pull; the baseline is the 1-chatbot run of the same invocation. ' +
      '"alone" is what N chatbots would ask if each pulled for itself (N × the baseline). Time per chatbot = the whole ' +
      "command (spawn to exit: the pull, each chatbot's replay, remote read and plan) ÷ N; ms per added chatbot = " +
      '(wall − baseline wall) ÷ (N − 1), the cost of one more chatbot on the source.',
    '',
    '| chatbots | requests to the source | × baseline | requests if each pulled alone | records served | wall s | ms per chatbot | ms per added chatbot | peak RSS MiB |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
}
