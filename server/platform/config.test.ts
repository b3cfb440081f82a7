import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, redactUrl } from './config';

describe('loadConfig', () => {
  it('has defaults for a newcomer', () => {
    const config = loadConfig({});
    expect(config).toEqual({
      port: 3000,
      host: 'localhost',
      databaseUrl: undefined,
      dataDir: path.resolve('data'),
      logLevel: 'info',
      publicUrl: 'http://localhost:3000',
      smtpUrl: undefined,
      smtpFrom: 'Watchkeeper <watchkeeper@localhost>',
      demo: false,
      resourcesDir: undefined,
      // Log backends read under ./logs only (docs/LOGS.md, docs/SECURITY.md).
      logRoots: [path.resolve('logs')],
    });
  });

  it('turns demo data on from WATCHKEEPER_DEMO or --demo, and names a bad value', () => {
    expect(loadConfig({ WATCHKEEPER_DEMO: '1' }).demo).toBe(true);
    expect(loadConfig({ WATCHKEEPER_DEMO: 'off' }, { demo: 'true' }).demo).toBe(true);
    expect(() => loadConfig({ WATCHKEEPER_DEMO: 'maybe' })).toThrow(/WATCHKEEPER_DEMO="maybe" is not true or false/);
  });

  it('takes a watched resources folder from WATCHKEEPER_RESOURCES or --resources, as an absolute path', () => {
    expect(loadConfig({ WATCHKEEPER_RESOURCES: 'resources' }).resourcesDir).toBe(path.resolve('resources'));
    expect(loadConfig({ WATCHKEEPER_RESOURCES: '/etc/a' }, { resourcesDir: '/etc/b' }).resourcesDir).toBe('/etc/b');
  });

  it('takes an SMTP server for sign-in codes, and names a bad one without its password', () => {
    expect(loadConfig({ SMTP_URL: 'smtp://ops:s3cret@mail:587', SMTP_FROM: 'Ops <ops@example.com>' })).toMatchObject({ smtpUrl: 'smtp://ops:s3cret@mail:587', smtpFrom: 'Ops <ops@example.com>' });
    expect(() => loadConfig({ SMTP_URL: 'http://ops:s3cret@mail', SMTP_FROM: 'nobody' })).toThrow(/SMTP_URL="http:\/\/ops:\*\*\*@mail\/" is not an smtp:\/\/ or smtps:\/\/ URL[\s\S]*SMTP_FROM="nobody" is not an email address/);
  });

  it('reads the environment and lets flags win', () => {
    const config = loadConfig(
      { PORT: '4000', HOST: '0.0.0.0', DATABASE_URL: 'postgres://u:p@db:5432/wk', WATCHKEEPER_DATA: '/var/lib/wk', LOG_LEVEL: 'DEBUG' },
      { port: '5000', publicUrl: 'https://ops.example.com/' },
    );
    expect(config.port).toBe(5000);
    expect(config.host).toBe('0.0.0.0');
    expect(config.databaseUrl).toBe('postgres://u:p@db:5432/wk');
    expect(config.dataDir).toBe('/var/lib/wk');
    expect(config.logLevel).toBe('debug');
    expect(config.publicUrl).toBe('https://ops.example.com');
  });

  it('derives the public URL from host and port', () => {
    expect(loadConfig({ PORT: '8080', HOST: '0.0.0.0' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ HOST: '::1' }).publicUrl).toBe('http://[::1]:3000');
  });

  it('reports every bad value at once, naming where it came from, with passwords hidden', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: '70000', DATABASE_URL: 'postgres//nohost', LOG_LEVEL: 'chatty', PUBLIC_URL: 'ftp://x' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = error instanceof ConfigError ? error.problems : [];
    expect(problems).toEqual([
      'PORT="70000" is not a port number (0-65535)',
      'DATABASE_URL="postgres//nohost" is not a postgres:// or postgresql:// URL with a host',
      'LOG_LEVEL="chatty" is not one of fatal, error, warn, info, debug, trace, silent',
      'PUBLIC_URL="ftp://x" is not an http:// or https:// URL',
    ]);
  });

  it('never shows a database password', () => {
    expect(redactUrl('postgres://admin:s3cret@db/wk')).toBe('postgres://admin:***@db/wk');
    expect(() => loadConfig({ DATABASE_URL: 'mysql://admin:s3cret@db/wk' })).toThrow(/mysql:\/\/admin:\*\*\*@db\/wk/);
    expect(redactUrl('not a url user:pw@host')).toBe('not a url user:***@host');
  });
});
