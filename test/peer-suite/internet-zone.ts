import type * as dnsPacket from 'dns-packet';

/**
 * What the public DNS answers for the names canary-checker's DNS fixtures ask (dns_pass.yaml, dns_fail.yaml),
 * served by the local stand-in in place of 8.8.8.8 and 1.1.1.1. The records are those the fixtures were
 * written against: dns_pass expects exactly them, dns_fail expects other ones.
 */
export const INTERNET_ZONE: Record<string, dnsPacket.Answer[]> = {
  '1.2.3.4.nip.io/A': [{ type: 'A', name: '1.2.3.4.nip.io', ttl: 300, data: '1.2.3.4' }],
  '1.1.1.1.in-addr.arpa/PTR': [{ type: 'PTR', name: '1.1.1.1.in-addr.arpa', ttl: 300, data: 'one.one.one.one' }],
  '8.8.8.8.in-addr.arpa/PTR': [{ type: 'PTR', name: '8.8.8.8.in-addr.arpa', ttl: 300, data: 'dns.google' }],
  // dns.google has addresses and no CNAME record: it is its own canonical name.
  'dns.google/A': [
    { type: 'A', name: 'dns.google', ttl: 300, data: '8.8.8.8' },
    { type: 'A', name: 'dns.google', ttl: 300, data: '8.8.4.4' },
  ],
  'google.com/MX': [{ type: 'MX', name: 'google.com', ttl: 300, data: { preference: 10, exchange: 'smtp.google.com' } }],
  'flanksource.com/MX': [{ type: 'MX', name: 'flanksource.com', ttl: 300, data: { preference: 1, exchange: 'smtp.google.com' } }],
  'flanksource.com/TXT': [
    { type: 'TXT', name: 'flanksource.com', ttl: 300, data: 'v=spf1 include:_spf.google.com ~all' },
    { type: 'TXT', name: 'flanksource.com', ttl: 300, data: 'google-site-verification=peer-suite-stand-in' },
  ],
  'flanksource.com/NS': [
    { type: 'NS', name: 'flanksource.com', ttl: 300, data: 'gina.ns.cloudflare.com' },
    { type: 'NS', name: 'flanksource.com', ttl: 300, data: 'walt.ns.cloudflare.com' },
  ],
};
