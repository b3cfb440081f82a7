import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeHarness, outcome, result, validate } from '../testing/check-harness';
import { startDnsServer, type DnsServer } from './dns-server';

/** The dns check against a real DNS server on 127.0.0.1 (UDP, built with dns-packet in dns-server.ts). */
let dns: DnsServer;
let server = '';

beforeAll(async () => {
  dns = await startDnsServer();
  server = `127.0.0.1:${dns.port}`;
});

afterAll(async () => {
  await dns.close();
  await closeHarness();
});

describe('dns: fields', () => {
  it('validates the query, the type and the server', () => {
    expect(validate('dns', { name: 'd' }).errors).toEqual(['spec.dns[0].query: is required']);
    expect(validate('dns', { name: 'd', query: 'example.test', querytype: 'SOA' }).errors).toEqual(['spec.dns[0].querytype: must be one of A, AAAA, CNAME, MX, TXT, PTR, SRV, NS']);
    expect(validate('dns', { name: 'd', query: 'example.test', server: 'dns://1.1.1.1' }).errors).toEqual(['spec.dns[0].server: must be a host or host:port, e.g. 1.1.1.1 or 10.0.0.2:5353']);
  });

  it('names what it asks whom', () => {
    expect(validate('dns', { name: 'd', query: 'example.com' }).endpoint).toBe('A/example.com');
    expect(validate('dns', { name: 'd', query: 'example.com', querytype: 'mx', server: '1.1.1.1' }).endpoint).toBe('MX/example.com@1.1.1.1:53');
    expect(validate('dns', { name: 'd', query: 'example.com', server: '10.0.0.2', port: 5353 }).endpoint).toBe('A/example.com@10.0.0.2:5353');
    expect(validate('dns', { name: 'd', query: 'example.com', server: '::1' }).endpoint).toBe('A/example.com@[::1]:53');
  });
});

describe('dns: every query type against a local server', () => {
  it('A (the default type), with minrecords and exactreply in any order', async () => {
    const ran = await outcome('dns', { name: 'a', query: 'example.test', server, minrecords: 2, exactreply: ['192.0.2.11', '192.0.2.10'] });
    expect(ran).toMatchObject({ pass: true, data: { querytype: 'A', server, records: ['192.0.2.10', '192.0.2.11'], count: 2, results: [{ address: '192.0.2.10', ttl: 300 }, { address: '192.0.2.11', ttl: 300 }] } });
    expect(ran.message).toMatch(/^got 192\.0\.2\.10, 192\.0\.2\.11 in \d+ ms$/);
    expect(dns.queries).toContain('example.test/A');
  });

  it('AAAA', async () => {
    expect(await outcome('dns', { name: 'aaaa', query: 'example.test', querytype: 'AAAA', server, exactreply: ['2001:db8::10'] })).toMatchObject({ pass: true, data: { records: ['2001:db8::10'] } });
  });

  it('CNAME, comparing names without case or the final dot', async () => {
    expect(await outcome('dns', { name: 'cname', query: 'www.example.test', querytype: 'CNAME', server, exactreply: ['Example.Test.'] })).toMatchObject({ pass: true, data: { records: ['example.test'] } });
    // As Go's LookupCNAME: a name with addresses but no CNAME record is its own canonical name.
    expect(await outcome('dns', { name: 'canonical', query: 'example.test', querytype: 'CNAME', server, exactreply: ['example.test.'] })).toMatchObject({ pass: true, data: { records: ['example.test.'] } });
  });

  it('MX as "host preference", like canary-checker', async () => {
    const ran = await outcome('dns', { name: 'mx', query: 'example.test', querytype: 'MX', server, exactreply: ['mail.example.test. 10', 'backup.example.test. 20'] });
    expect(ran).toMatchObject({ pass: true, data: { records: ['mail.example.test 10', 'backup.example.test 20'], results: [{ exchange: 'mail.example.test', priority: 10 }, { exchange: 'backup.example.test', priority: 20 }] } });
  });

  it('TXT, joining the strings of one record', async () => {
    expect(await outcome('dns', { name: 'txt', query: 'example.test', querytype: 'TXT', server, exactreply: ['v=spf1 -all', 'part one, part two'] })).toMatchObject({ pass: true });
  });

  it('PTR of an address (a reverse lookup) or of a reverse name', async () => {
    expect(await outcome('dns', { name: 'ptr', query: '192.0.2.10', querytype: 'PTR', server, exactreply: ['example.test'] })).toMatchObject({ pass: true, data: { records: ['example.test'] } });
    expect(await outcome('dns', { name: 'ptr', query: '10.2.0.192.in-addr.arpa', querytype: 'PTR', server, minrecords: 1 })).toMatchObject({ pass: true });
  });

  it('SRV as "priority weight port target"', async () => {
    const ran = await outcome('dns', { name: 'srv', query: '_sip._tcp.example.test', querytype: 'SRV', server, exactreply: ['10 5 5060 sip.example.test'] });
    expect(ran).toMatchObject({ pass: true, data: { results: [{ name: 'sip.example.test', port: 5060, priority: 10, weight: 5 }] } });
  });

  it('NS', async () => {
    expect(await outcome('dns', { name: 'ns', query: 'example.test', querytype: 'ns', server: '127.0.0.1', port: dns.port, minrecords: 2 })).toMatchObject({ pass: true, data: { records: ['ns1.example.test', 'ns2.example.test'] } });
  });
});

describe('dns: failures', () => {
  it('fails too few records and a different reply, naming both', async () => {
    const ran = await outcome('dns', { name: 'a', query: 'example.test', server, minrecords: 3, exactreply: ['192.0.2.10'] });
    expect(ran).toMatchObject({ pass: false, message: `A example.test on ${server}: returned 2 records, expected at least 3; got 192.0.2.10, 192.0.2.11, expected 192.0.2.10` });
  });

  it('fails a name that does not exist and a type the name does not have', async () => {
    expect(await outcome('dns', { name: 'nx', query: 'missing.example.test', server })).toMatchObject({ pass: false, message: `A missing.example.test on ${server}: the name does not exist (NXDOMAIN)`, error: 'ENOTFOUND' });
    expect(await outcome('dns', { name: 'nodata', query: 'www.example.test', querytype: 'AAAA', server })).toMatchObject({ pass: false, message: `AAAA www.example.test on ${server}: the name has no records of this type` });
  });

  it('fails a server that does not answer within the timeout (seconds)', async () => {
    const started = Date.now();
    expect(await outcome('dns', { name: 'slow', query: 'slow.example.test', server, timeout: 1 })).toMatchObject({ pass: false, message: `A slow.example.test on ${server}: no answer within 1 s` });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('uses the variables in test and display expressions', async () => {
    const ran = await result('dns', { name: 'expr', query: 'example.test', querytype: 'MX', server, test: { expr: "count == 2 && results.exists(r, r.exchange == 'mail.example.test' && r.priority == 10)" }, display: { expr: "querytype + ' ' + query + ': ' + records.join(', ')" } });
    expect(ran).toMatchObject({ pass: true, message: 'MX example.test: mail.example.test 10, backup.example.test 20' });
  });
});
