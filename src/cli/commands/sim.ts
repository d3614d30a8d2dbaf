/**
 * `listing-sync sim`: runs the service simulator until SIGINT/SIGTERM. Credentials come from
 * API_SECRET_KEY / API_SESSION_KEY / PROJECT_AUTH_TOKEN when set (so the CLI pointed at the
 * simulator works with the same env), else the simulator's defaults. Under its URL it prints the
 * `export` lines that point the CLI at it, and with --reso those of the RESO feed (sim-exports.ts);
 * a key taken from the env is never printed.
 */
import type { Command } from 'commander';
import { UsageError } from '../../shared/errors.js';
import { IMAGES_READ_FORMS, SALE_TYPE_READ_FORMS } from '../../sim/read-shape.js';
import { sampleListing } from '../../sim/sample-listings.js';
import type { SimCredentials, SimFaults, SimOptions } from '../../sim/server.js';
import type { ImagesReadForm, SaleTypeReadForm } from '../../sim/types.js';
import { EXIT } from '../exit-codes.js';
import type { RegisterCommands } from '../host.js';
import { integerFlag } from '../input/integer-flag.js';
import { allowedValue } from '../input/option-values.js';
import { resoExportLines, simExportLines } from '../output/sim-exports.js';
import { resoSimOptionsFrom, resoCredentialsFromEnv, type ResoSimFlags } from '../input/reso-sim-options.js';
import { plural } from '../../shared/counts.js';

export interface SimFlags extends ResoSimFlags {
  reso?: boolean;
  port?: string;
  host?: string;
  seedListings?: string;
  chatbot?: string[];
  latency?: string;
  fault503?: string;
  faultEnvelope?: string;
  faultRateLimit?: string;
  faultDrop?: string;
  faultDrift?: string;
  seed?: string;
  readSaleType?: string;
  readImages?: string;
  pageSizeCap?: string;
}

function rate(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1)
    throw new UsageError(`--${flag} must be a rate from 0 to 1 (got '${value}')`);
  return n;
}

function credentialsFromEnv(env: Readonly<Record<string, string | undefined>>): Partial<SimCredentials> {
  // Why empty strings are dropped: the design counts an empty env value as unset.
  const pairs: Array<[keyof SimCredentials, string | undefined]> = [
    ['secretKey', env.API_SECRET_KEY],
    ['sessionKey', env.API_SESSION_KEY],
    ['projectAuthToken', env.PROJECT_AUTH_TOKEN],
  ];
  return Object.fromEntries(pairs.filter(([, value]) => value !== undefined && value !== ''));
}

/** Pure: flags and env → simulator options. Throws UsageError naming the bad flag. */
export function simOptionsFrom(flags: SimFlags, env: Readonly<Record<string, string | undefined>>): SimOptions {
  const chatbots = (flags.chatbot ?? [])
    .flatMap((value) => value.split(','))
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const bots = chatbots.length > 0 ? chatbots : ['bot-demo'];
  const firstBot = bots[0] ?? 'bot-demo';
  const count = integerFlag('seed-listings', flags.seedListings, 0, 1_000_000) ?? 0;
  const faults: SimFaults = {
    seed: integerFlag('seed', flags.seed, 0, 2 ** 32 - 1),
    latencyMs: integerFlag('latency', flags.latency, 0, 60_000),
    http503Rate: rate('fault-503', flags.fault503),
    envelopeFailureRate: rate('fault-envelope', flags.faultEnvelope),
    rateLimitRate: rate('fault-rate-limit', flags.faultRateLimit),
    commitThenDropRate: rate('fault-drop', flags.faultDrop),
    driftRate: rate('fault-drift', flags.faultDrift),
  };
  const saleType =
    flags.readSaleType === undefined
      ? undefined
      : allowedValue<SaleTypeReadForm>(flags.readSaleType, '--read-sale-type', SALE_TYPE_READ_FORMS);
  const images =
    flags.readImages === undefined ? undefined : allowedValue<ImagesReadForm>(flags.readImages, '--read-images', IMAGES_READ_FORMS);
  return {
    port: integerFlag('port', flags.port, 0, 65_535) ?? 0,
    host: flags.host ?? '127.0.0.1',
    credentials: credentialsFromEnv(env),
    chatbots: bots,
    listings: count > 0 ? { [firstBot]: Array.from({ length: count }, (_, i) => sampleListing(i + 1, { SerialNumber: firstBot })) } : {},
    faults: Object.fromEntries(Object.entries(faults).filter(([, value]) => value !== undefined)),
    readForms: { ...(saleType ? { saleType } : {}), ...(images ? { images } : {}) },
    pageSizeCap: integerFlag('page-size-cap', flags.pageSizeCap, 1, 1_000_000),
  };
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

export const registerSimCommands: RegisterCommands = (program: Command, host) => {
  program
    .command('sim')
    .description('Run the service simulator (a test tool: in-memory, no persistence, admin routes without auth) until stopped')
    .option('--port <n>', 'port to listen on (0 = any free port)', '0')
    .option('--host <h>', 'address to bind', '127.0.0.1')
    .option('--seed-listings <n>', 'seed N sample listings into the first chatbot')
    .option('--chatbot <serial>', 'a chatbot serial number (repeatable or comma-separated; default bot-demo)', collect)
    .option('--latency <ms>', 'delay added to every request')
    .option('--fault-503 <rate>', 'share of requests answered HTTP 503')
    .option('--fault-envelope <rate>', 'share of requests answered Success false, Code 500')
    .option('--fault-rate-limit <rate>', 'share of requests answered Code 429 with Retry-After')
    .option('--fault-drop <rate>', 'share of writes applied and then dropped without an answer')
    .option('--fault-drift <rate>', 'share of list reads that insert or remove a listing first')
    .option('--seed <n>', 'seed of the fault PRNG (same seed, same faults)')
    .option('--read-sale-type <form>', `SaleType form in list answers: ${SALE_TYPE_READ_FORMS.join(', ')}`)
    .option('--read-images <form>', `Images form in list answers: ${IMAGES_READ_FORMS.join(', ')}`)
    .option('--page-size-cap <n>', 'answer at most N listings per list page, silently (as a capping service does)')
    .option(
      '--reso',
      'also run a RESO Web API simulator (an MLS feed: OAuth2 token endpoint, Property with ' +
        '$filter/$top/$skip/nextLink) on a second free port, beside the service simulator; its client id/secret ' +
        'are FEED_OAUTH_CLIENT_ID/SECRET when set, else its defaults',
    )
    .option('--reso-records <n>', 'with --reso: records seeded at start (default 0)')
    .option('--reso-max-top <n>', 'with --reso: largest page served; a larger $top is silently capped (default 1000)')
    .option('--reso-no-next-link', 'with --reso: pages carry no @odata.nextLink (clients page by $skip)')
    .option('--reso-budget <spec>', 'with --reso: a budget that suspends the client when exceeded (2/s,7200/h,40000/d,4GB/h or a preset)')
    .action((flags: SimFlags) =>
      host.run(async () => {
        const options = simOptionsFrom(flags, host.io.env);
        const resoOptions = flags.reso === true ? resoSimOptionsFrom(flags, host.io.env, options.host ?? '127.0.0.1') : undefined;
        const stopped = new Promise<void>((resolve) => host.io.onShutdown(resolve));
        // Why loaded here: the simulators are the sim command's alone; every other command starts without them.
        const [{ startSimulator }, { startResoSimulator }] = await Promise.all([
          import('../../sim/server.js'),
          import('../../sim/reso/server.js'),
        ]);
        const sim = await startSimulator(options);
        host.io.releases.push('simulator', () => sim.close());
        host.io.stdout.write(`listing-sync simulator listening on ${sim.baseUrl} (chatbots: ${sim.state.chatbots().join(', ')})\n`);
        host.io.stdout.write(`${simExportLines(sim.baseUrl, options.credentials ?? {}).join('\n')}\n`);
        if (resoOptions !== undefined) {
          const reso = await startResoSimulator(resoOptions);
          host.io.releases.push('RESO simulator', () => reso.close());
          const fromEnv = resoCredentialsFromEnv(host.io.env);
          const given = Object.keys(fromEnv).length === 2 ? 'FEED_OAUTH_CLIENT_ID/SECRET' : 'default credentials';
          host.io.stdout.write(`RESO simulator Property URL ${reso.propertyUrl}\n`);
          host.io.stdout.write(`RESO simulator token URL ${reso.tokenUrl} (${given}, ${plural(reso.state.records.size, 'record')})\n`);
          host.io.stdout.write(`${resoExportLines(reso.propertyUrl, reso.tokenUrl, fromEnv).join('\n')}\n`);
        }
        await stopped;
        return EXIT.ok;
      }),
    );
};
