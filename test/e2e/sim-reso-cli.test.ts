/**
 * `listing-sync sim --reso` as a process: it prints the RESO Property and token URLs, issues a
 * token for the env credentials, serves a Property page, never prints the secret, and exits 0
 * on SIGTERM.
 */
import { afterEach, expect, it } from 'vitest';
import { request } from 'undici';
import { startCli, type CliProcess } from '../helpers/cli-process.js';

let cli: CliProcess | undefined;
afterEach(async () => {
  await cli?.kill();
  cli = undefined;
});

const TOKEN_LINE = /RESO simulator token URL (http:\/\/127\.0\.0\.1:\d+\/\S+) \(FEED_OAUTH_CLIENT_ID\/SECRET, 7 records\)/;
const PROPERTY_LINE = /RESO simulator Property URL (http:\/\/127\.0\.0\.1:\d+\/odata\/Property)\n/;

it('serves a token and a Property page with the env credentials, prints no secret, and exits 0 on SIGTERM', async () => {
  const env = { FEED_OAUTH_CLIENT_ID: 'e2e-client', FEED_OAUTH_CLIENT_SECRET: 'e2e-reso-secret-value' };
  cli = startCli(['sim', '--reso', '--reso-records', '7', '--reso-max-top', '5', '--reso-no-next-link', '--reso-budget', '50/s'], env);
  await cli.waitFor(TOKEN_LINE);
  const tokenUrl = TOKEN_LINE.exec(cli.stdout())?.[1] ?? '';
  const propertyUrl = PROPERTY_LINE.exec(cli.stdout())?.[1] ?? '';
  expect(propertyUrl).not.toBe('');

  const tokenAnswer = await request(tokenUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from('e2e-client:e2e-reso-secret-value').toString('base64')}`,
    },
    body: 'grant_type=client_credentials',
  });
  expect(tokenAnswer.statusCode).toBe(200);
  const { access_token: token } = (await tokenAnswer.body.json()) as { access_token: string };
  const page = await request(`${propertyUrl}?$top=100`, { headers: { authorization: `Bearer ${token}` } });
  expect(page.statusCode).toBe(200);
  const body = (await page.body.json()) as { value: unknown[]; '@odata.nextLink'?: string };
  expect(body.value).toHaveLength(5);
  expect(body['@odata.nextLink']).toBeUndefined();

  expect((await cli.stop('SIGTERM')).code).toBe(0);
  const output = cli.stdout() + cli.stderr();
  expect(output).not.toContain('e2e-reso-secret-value');
  expect(output).not.toContain(token);
});
