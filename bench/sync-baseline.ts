/**
 * The same-run baselines of bench:sync: the scenario's exact write requests sent without any
 * queue, 16 (the concurrency) in flight through p-limit, against a fresh simulator holding the
 * scenario's remote listings. Two clients:
 * - plain undici (a Pool, JSON bodies, the envelope's Success checked): what the machine and the
 *   simulator allow at all;
 * - listing-sync's own ApiClient (zod validation, error mapping): what the queue could reach if
 *   its own bookkeeping cost nothing.
 */
import { performance } from 'node:perf_hooks';
import pLimit from 'p-limit';
import { Pool } from 'undici';
import { createApiClient } from '../src/api/client.js';
import { ENDPOINTS } from '../src/api/endpoints.js';
import { startSimulator } from '../src/sim/server.js';
import { sampleInFlight } from './sync-sampler.js';
import { BENCH_CHATBOT, type BaselineWrite, type Scenario } from './sync-scenario.js';

export interface BaselineResult {
  client: 'undici' | 'api-client';
  requests: number;
  failures: number;
  seconds: number;
  perSecond: number;
  maxInFlight: number;
  /** Average requests in flight (sampled every 5 ms). */
  avgInFlight: number;
}

type Sender = (write: BaselineWrite) => Promise<boolean>;

async function measure(
  client: BaselineResult['client'],
  scenario: Scenario,
  latencyMs: number,
  concurrency: number,
  makeSender: (baseUrl: string, secretKey: string) => { send: Sender; close(): Promise<void> },
): Promise<BaselineResult> {
  const sim = await startSimulator({ chatbots: [BENCH_CHATBOT], listings: { [BENCH_CHATBOT]: scenario.remote }, faults: { latencyMs } });
  const sender = makeSender(sim.baseUrl, sim.credentials.secretKey);
  try {
    const limit = pLimit(concurrency);
    let failures = 0;
    const started = performance.now();
    const sampler = sampleInFlight(() => sim.state.inFlight());
    await Promise.all(
      scenario.writes.map((write) =>
        limit(async () => {
          if (!(await sender.send(write))) failures += 1;
        }),
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    const avgInFlight = sampler.stop();
    const requests = scenario.writes.length;
    return { client, requests, failures, seconds, perSecond: requests / seconds, maxInFlight: sim.state.maxInFlight(), avgInFlight };
  } finally {
    await sender.close();
    await sim.close();
  }
}

/** Plain undici: one Pool of `concurrency` connections, the envelope's Success checked. */
export async function undiciBaseline(scenario: Scenario, latencyMs: number, concurrency: number): Promise<BaselineResult> {
  return await measure('undici', scenario, latencyMs, concurrency, (baseUrl, secretKey) => {
    const pool = new Pool(baseUrl, { connections: concurrency });
    return {
      async send(write) {
        const response = await pool.request({
          path: ENDPOINTS[write.endpoint].path,
          method: 'POST',
          headers: { authorization: secretKey, 'content-type': 'application/json' },
          body: JSON.stringify(write.body),
        });
        const envelope = (await response.body.json()) as { Success?: unknown };
        return response.statusCode === 200 && envelope.Success === true;
      },
      close: () => pool.close(),
    };
  });
}

/** listing-sync's ApiClient (what the workers use), same requests. */
export async function apiClientBaseline(scenario: Scenario, latencyMs: number, concurrency: number): Promise<BaselineResult> {
  return await measure('api-client', scenario, latencyMs, concurrency, (baseUrl, secretKey) => {
    const api = createApiClient({ baseUrl, credentials: { secretKey }, connections: concurrency });
    return {
      async send(write) {
        try {
          if (write.endpoint === 'updateListing') await api.updateListing(write.body, {});
          else if (write.endpoint === 'createListing') await api.createListing(write.body, {});
          else await api.deleteListings(write.body, {});
          return true;
        } catch {
          return false;
        }
      },
      close: () => api.close(),
    };
  });
}
