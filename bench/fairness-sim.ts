/**
 * bench:fairness's simulator, as its own process (so that its CPU is not the bench's, and the
 * bench's polling never delays its answers). Forked with an IPC channel; argv: LATENCY_MS and
 * the chatbots (comma-separated). Sends { type: 'ready', sim } once listening; answers
 * { type: 'count' } with the writes answered so far, { type: 'report' } with the creates it answered (chatbot and time, in order), listings per
 * chatbot, duplicate creates and the most requests in flight; exits on { type: 'close' }.
 */
import { startSimulator } from '../src/sim/server.js';

export interface FairnessSimInfo {
  baseUrl: string;
  siteUrl: string;
  credentials: { secretKey: string; sessionKey: string; projectAuthToken: string };
}

export interface FairnessSimReport {
  /** Creates answered 200, in the order answered: [chatbot, Date.now()]. */
  creates: Array<[string, number]>;
  listings: Record<string, number>;
  duplicateCreates: number;
  maxInFlight: number;
}

export type FromFairnessSim =
  { type: 'ready'; sim: FairnessSimInfo } | { type: 'report'; report: FairnessSimReport } | { type: 'count'; writes: number };
/** 'count': how many writes it answered so far (cheap, for polling); 'report': everything. */
export type ToFairnessSim = { type: 'count' } | { type: 'report' } | { type: 'close' };

async function main(): Promise<void> {
  const [latencyText, chatbotsText] = process.argv.slice(2);
  const chatbots = (chatbotsText ?? '').split(',').filter((name) => name !== '');
  const sim = await startSimulator({ port: 0, host: '127.0.0.1', chatbots, faults: { latencyMs: Number(latencyText ?? '20') } });
  const send = (message: FromFairnessSim): void => void process.send?.(message);
  process.on('message', (message: ToFairnessSim) => {
    if (message.type === 'close') {
      void sim.close().then(() => process.exit(0));
      return;
    }
    if (message.type === 'count') {
      send({ type: 'count', writes: sim.state.writeCalls() });
      return;
    }
    const creates = sim.state
      .calls()
      .filter((call) => call.endpoint === 'createListing' && call.status === 200)
      .map((call): [string, number] => [(call.body as { SerialNumber?: string }).SerialNumber ?? '', call.at]);
    const listings = Object.fromEntries(chatbots.map((chatbot) => [chatbot, sim.state.listings(chatbot).length]));
    const duplicateCreates = chatbots.reduce((sum, chatbot) => sum + sim.state.duplicateCreates(chatbot).length, 0);
    send({ type: 'report', report: { creates, listings, duplicateCreates, maxInFlight: sim.state.maxInFlight() } });
  });
  send({ type: 'ready', sim: { baseUrl: sim.baseUrl, siteUrl: sim.siteUrl, credentials: sim.credentials } });
}

main().catch((thrown: unknown) => {
  process.stderr.write(`fairness-sim failed: ${thrown instanceof Error ? thrown.message : String(thrown)}\n`);
  process.exit(1);
});
