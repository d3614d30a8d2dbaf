/** Credentials never go over plain http to another machine: the host check and the config's refusals. */
import { describe, expect, it } from 'vitest';
import { plainHttpHostList, webhookClearProblem } from '../../src/config/clear-credentials.js';
import { resolveConfig } from '../../src/config/config.js';
import { isLoopbackHost, plainHttpHost } from '../../src/shared/plain-http.js';

function configProblem(env: Record<string, string>): string {
  try {
    resolveConfig({ env });
    return '';
  } catch (thrown) {
    return (thrown as Error).message;
  }
}

describe('plain http to another machine', () => {
  it('treats 127.0.0.0/8, ::1 and localhost as this machine', () => {
    for (const host of ['127.0.0.1', '127.9.8.7', 'localhost', 'LOCALHOST', 'api.localhost', '[::1]', '::1'])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['10.0.0.1', '128.0.0.1', 'mls.example', '127.0.0.1.nip.io', '::2']) expect(isLoopbackHost(host), host).toBe(false);
  });

  it('names the host of a plain-http URL to another machine, and nothing for https, loopback or an allowed host', () => {
    expect(plainHttpHost('http://mls.example/token')).toBe('mls.example');
    expect(plainHttpHost('HTTP://MLS.example:8080/x')).toBe('mls.example');
    expect(plainHttpHost('https://mls.example/token')).toBeUndefined();
    expect(plainHttpHost('http://127.0.0.1:4000/')).toBeUndefined();
    expect(plainHttpHost('http://[::1]:4000/')).toBeUndefined();
    expect(plainHttpHost('http://sim:4000', ['sim'])).toBeUndefined();
  });

  it('refuses FEED_OAUTH_TOKEN_URL over plain http, naming https', () => {
    const message = configProblem({
      FEED_OAUTH_TOKEN_URL: 'http://mls.example/token',
      FEED_OAUTH_CLIENT_ID: 'id',
      FEED_OAUTH_CLIENT_SECRET: 'the-client-secret',
    });
    expect(message).toContain(
      'FEED_OAUTH_TOKEN_URL: FEED_OAUTH_TOKEN_URL is plain http to mls.example, which would send the feed OAuth client secret in clear: use an https:// URL',
    );
    expect(message).not.toContain('the-client-secret');
  });

  it("refuses API_BASE_URL over plain http when the service's keys are set, unless the host is allowed", () => {
    const env = { API_BASE_URL: 'http://api.example', API_SECRET_KEY: 'k' };
    expect(configProblem(env)).toContain("API_BASE_URL is plain http to api.example, which would send the service's API keys in clear");
    expect(configProblem({ API_BASE_URL: 'http://api.example' })).toBe('');
    expect(configProblem({ ...env, API_BASE_URL: 'https://api.example' })).toBe('');
    expect(configProblem({ ...env, API_BASE_URL: 'http://127.0.0.1:4000' })).toBe('');
    expect(configProblem({ ...env, LISTING_SYNC_PLAIN_HTTP_HOSTS: 'API.example, sim' })).toBe('');
  });
});

describe('the other URLs sent a secret', () => {
  it('refuses SITE_URL over plain http when PROJECT_AUTH_TOKEN is set (the table listing sends it)', () => {
    const env = { SITE_URL: 'http://site.example', PROJECT_AUTH_TOKEN: 'the-project-token' };
    const message = configProblem(env);
    expect(message).toContain(
      'SITE_URL: SITE_URL is plain http to site.example, which would send PROJECT_AUTH_TOKEN (the table listing sends it) in clear: use an https:// URL',
    );
    expect(message).not.toContain('the-project-token');
    expect(configProblem({ SITE_URL: 'http://site.example' })).toBe('');
    expect(configProblem({ ...env, SITE_URL: 'http://127.0.0.1:4000' })).toBe('');
    expect(configProblem({ ...env, LISTING_SYNC_PLAIN_HTTP_HOSTS: 'site.example' })).toBe('');
  });

  it('refuses every plain-http webhook to another machine (its URL is its credential), unless the host is allowed', () => {
    expect(webhookClearProblem('http://hooks.example/services/T/B/x', '--webhook', [])).toBe(
      '--webhook is plain http to hooks.example, which would send the webhook URL (a credential: its path, query and user info) in clear: ' +
        'use an https:// URL (plain http is allowed only to this machine: 127.0.0.1, ::1 or localhost)',
    );
    expect(webhookClearProblem('https://hooks.example/services/T/B/x', '--webhook', [])).toBeUndefined();
    expect(webhookClearProblem('http://127.0.0.1:9/hook', '--webhook', [])).toBeUndefined();
    expect(webhookClearProblem('http://hooks.example/x', '--webhook', plainHttpHostList(' Hooks.Example ,sim'))).toBeUndefined();
  });
});
