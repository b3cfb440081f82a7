import { describe, expect, it } from 'vitest';
import { buildPolicy, isAdminOnlyEgressProperty, parseRules, refusal, sameHost } from './egress';

describe('egress policy', () => {
  const defaults = buildPolicy({});

  it('refuses link-local and cloud metadata addresses by default, in every spelling', () => {
    for (const host of ['169.254.169.254', '169.254.0.1', '[fe80::1]', 'fe80::1%eth0', 'fd00:ec2::254', '::ffff:169.254.169.254', '[::ffff:a9fe:a9fe]', '64:ff9b::a9fe:a9fe', '100.100.100.200', 'metadata.google.internal', 'METADATA.google.internal.']) {
      expect(refusal(defaults, host)?.message, host).toMatch(/is refused by the console's egress policy \(link-local and cloud metadata addresses/);
    }
    expect(refusal(defaults, 'example.internal', '169.254.169.254')?.message).toMatch(/^egress to example.internal \(169.254.169.254\) is refused/);
    expect(refusal(defaults, '169.254.169.254')?.message).toContain('an admin can change it in Settings');
  });

  it('allows everything else by default: loopback, private networks, names', () => {
    for (const host of ['127.0.0.1', '127.0.0.3', '::1', '10.1.2.3', '192.168.1.1', 'fd00::1', 'localhost', 'db.internal']) expect(refusal(defaults, host), host).toBeUndefined();
    expect(refusal(defaults, 'localhost', '127.0.0.1')).toBeUndefined();
  });

  it('adds denies and narrows with allow lists (each list set must admit)', () => {
    const policy = buildPolicy({ deny: '127.0.0.3, *.bad.example', allow: '127.0.0.0/8 db.internal', envAllow: '127.0.0.0/16, db.internal, 10.0.0.0/8' });
    expect(refusal(policy, '127.0.0.3')?.message).toContain('egress.deny lists 127.0.0.3');
    expect(refusal(policy, 'x.bad.example')?.message).toContain('egress.deny lists *.bad.example');
    expect(refusal(policy, '127.0.0.1')).toBeUndefined();
    expect(refusal(policy, '127.1.0.1')?.message).toContain('not in WATCHKEEPER_EGRESS_ALLOW');
    expect(refusal(policy, '10.0.0.1')?.message).toContain('not in egress.allow');
    expect(refusal(policy, 'db.internal', '10.9.9.9')).toBeUndefined();
    // Before resolution a name is not judged by allow lists; its address is.
    expect(refusal(policy, 'other.internal')).toBeUndefined();
    expect(refusal(policy, 'other.internal', '10.0.0.1')?.message).toMatch(/^egress to other.internal \(10.0.0.1\) is refused .*not in egress.allow/);
  });

  it('lifts the built-in refusal only when asked, and a deny still wins', () => {
    expect(refusal(buildPolicy({ linkLocal: 'allow' }), '169.254.169.254')).toBeUndefined();
    expect(refusal(buildPolicy({ linkLocal: 'allow', deny: '169.254.169.254/32' }), '169.254.169.254')?.message).toContain('egress.deny lists');
  });

  it('reads CIDRs of both families and says which entries it could not read', () => {
    const { rules, problems } = parseRules('10.0.0.0/8 fd00::/8 ::ffff:10.0.0.0/104 bad/entry 1.2.3.4/33 host_name.example');
    expect(rules.map((rule) => rule.text)).toEqual(['10.0.0.0/8', 'fd00::/8', '::ffff:10.0.0.0/104', 'host_name.example']);
    expect(problems).toHaveLength(2);
    const policy = buildPolicy({ deny: 'fd00::/8 ::ffff:10.0.0.0/104' });
    expect(refusal(policy, 'fd12::1')).toBeDefined();
    expect(refusal(policy, '10.200.0.1')).toBeDefined();
    expect(refusal(policy, '11.0.0.1')).toBeUndefined();
  });

  it('knows which properties only admins write, and what a same-host redirect is', () => {
    expect(['egress.allow', 'egress.deny', 'Egress.link_local', 'integrations.chart_registry'].every(isAdminOnlyEgressProperty)).toBe(true);
    expect(isAdminOnlyEgressProperty('logs.disable')).toBe(false);
    expect(sameHost(new URL('http://a.example/x'), new URL('https://A.example:8443/y'))).toBe(true);
    expect(sameHost(new URL('http://127.0.0.1:1/'), new URL('http://127.0.0.2:1/'))).toBe(false);
  });
});
