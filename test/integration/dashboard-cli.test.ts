/**
 * `listing-sync dashboard` start-up rules: it refuses to start without credentials (exit 2, one
 * line naming the env vars to set) unless --insecure-local, which only binds to loopback; with
 * --work, not without the service's settings and a job key.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_DASHBOARD_PORT, dashboardSettingsFrom } from '../../src/cli/commands/dashboard.js';
import { lines, runCli } from '../helpers/run-cli.js';

describe('listing-sync dashboard as a process', () => {
  it('refuses to start without credentials: exit 2, one line saying which env vars to set', async () => {
    const run = await runCli(['dashboard', '--port', '0'], { DASHBOARD_USER: '', DASHBOARD_TOKEN: '' });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(lines(run.stderr)).toHaveLength(1);
    expect(run.stderr).toMatch(/DASHBOARD_USER and DASHBOARD_PASSWORD .* or DASHBOARD_TOKEN/);
    expect(run.stderr).toContain('--insecure-local');
  });

  it('refuses --insecure-local with a non-loopback --host, and half a basic-auth pair', async () => {
    const wide = await runCli(['dashboard', '--insecure-local', '--host', '0.0.0.0'], {});
    expect(wide.code).toBe(2);
    expect(lines(wide.stderr)).toEqual([
      'listing-sync: --insecure-local binds to 127.0.0.1 only: drop --host 0.0.0.0, or set DASHBOARD_USER and DASHBOARD_PASSWORD (basic auth) or DASHBOARD_TOKEN (bearer) to listen elsewhere',
    ]);
    const half = await runCli(['dashboard'], { DASHBOARD_USER: 'ops' });
    expect(half.code).toBe(2);
    expect(half.stderr).toContain('DASHBOARD_USER is set without DASHBOARD_PASSWORD');
  });

  it('--work refuses to start without the service or a job key: exit 2, one line naming the setting, nothing served', async () => {
    const noService = await runCli(['dashboard', '--insecure-local', '--port', '0', '--work'], {});
    expect(noService.code).toBe(2);
    expect(noService.stdout).toBe('');
    expect(lines(noService.stderr)).toHaveLength(1);
    expect(noService.stderr).toContain('API_BASE_URL is not set');
    const noKey = await runCli(['dashboard', '--insecure-local', '--port', '0', '--work'], { API_BASE_URL: 'http://127.0.0.1:9/api' });
    expect(noKey.code).toBe(2);
    expect(noKey.stdout).toBe('');
    expect(lines(noKey.stderr)).toHaveLength(1);
    expect(noKey.stderr).toContain('LISTING_SYNC_JOB_KEY');
  });
});

describe('dashboardSettingsFrom', () => {
  it('binds to loopback by default and takes credentials from the env (empty counts as unset)', () => {
    expect(dashboardSettingsFrom({}, { DASHBOARD_TOKEN: 't0k3n-value' })).toEqual({
      port: DEFAULT_DASHBOARD_PORT,
      host: '127.0.0.1',
      auth: { user: undefined, password: undefined, token: 't0k3n-value' },
      readOnly: false,
    });
    expect(
      dashboardSettingsFrom(
        { host: '0.0.0.0', port: '9000', readOnly: true },
        { DASHBOARD_USER: 'ops', DASHBOARD_PASSWORD: 'pw', DASHBOARD_TOKEN: '' },
      ),
    ).toEqual({
      port: 9000,
      host: '0.0.0.0',
      auth: { user: 'ops', password: 'pw', token: undefined },
      readOnly: true,
    });
    expect(() => dashboardSettingsFrom({}, { DASHBOARD_USER: '', DASHBOARD_PASSWORD: '' })).toThrow(/needs credentials/);
  });

  it('--insecure-local runs without credentials on loopback only, and keeps credentials that are set', () => {
    expect(dashboardSettingsFrom({ insecureLocal: true }, {})).toMatchObject({ host: '127.0.0.1', auth: 'insecure-local' });
    expect(dashboardSettingsFrom({ insecureLocal: true, host: 'localhost' }, {})).toMatchObject({ host: 'localhost' });
    expect(dashboardSettingsFrom({ insecureLocal: true }, { DASHBOARD_TOKEN: 'tok' })).toMatchObject({ auth: { token: 'tok' } });
    expect(() => dashboardSettingsFrom({ insecureLocal: true, host: '192.168.1.5' }, {})).toThrow(/binds to 127\.0\.0\.1 only/);
    expect(() => dashboardSettingsFrom({ port: '70000' }, { DASHBOARD_TOKEN: 'tok' })).toThrow(/--port/);
  });
});
