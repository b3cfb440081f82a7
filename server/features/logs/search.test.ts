import { describe, expect, it } from 'vitest';
import { parseLine } from './search';

describe('parseLine', () => {
  it('reads the leading timestamp of a text line in the common forms, and the level word after it', () => {
    expect(parseLine('2026-11-22T10:00:00Z ERROR boom')).toEqual({ time: new Date('2026-11-22T10:00:00Z'), message: 'ERROR boom', level: 'error' });
    expect(parseLine('[2026-11-22 10:00:00,250 +0100] WARNING slow')).toEqual({ time: new Date('2026-11-22T09:00:00.250Z'), message: 'WARNING slow', level: 'warn' });
    expect(parseLine('2026-11-22T10:00:00.123456789+02:00 started').time).toEqual(new Date('2026-11-22T08:00:00.123Z'));
  });

  it('keeps a line without a timestamp whole', () => {
    expect(parseLine('    at Object.<anonymous> (x.js:1:1)')).toEqual({ time: undefined, message: '    at Object.<anonymous> (x.js:1:1)' });
  });

  it('reads JSON lines by their fields: pino numbers, epoch seconds, ISO strings', () => {
    expect(parseLine('{"level":50,"time":1795000000000,"msg":"failed"}')).toEqual({ time: new Date(1795000000000), message: 'failed', level: 'error' });
    expect(parseLine('{"severity":"INFO","ts":1795000000,"message":"ok"}')).toEqual({ time: new Date(1795000000000), message: 'ok', level: 'info' });
    expect(parseLine('{"@timestamp":"2026-11-22T10:00:00Z","event":"x"}')).toEqual({ time: new Date('2026-11-22T10:00:00Z'), message: '{"@timestamp":"2026-11-22T10:00:00Z","event":"x"}' });
    expect(parseLine('{not json').message).toBe('{not json');
  });
});
