/**
 * Samples the simulator's requests in flight every few milliseconds: the average over a phase
 * divided by the concurrency is how busy the request slots were (1.00 = never idle). It tells
 * apart "the client leaves slots idle" from "each request takes longer than the latency".
 */
export interface InFlightSampler {
  /** Stops sampling; returns the average in flight. */
  stop(): number;
}

export function sampleInFlight(inFlight: () => number, everyMs = 5): InFlightSampler {
  let sum = 0;
  let samples = 0;
  const timer = setInterval(() => {
    sum += inFlight();
    samples += 1;
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return samples === 0 ? 0 : sum / samples;
    },
  };
}
