import { dnsCheck } from './checks/dns';
import { execCheck } from './checks/exec';
import { folderCheck } from './checks/folder';
import { httpCheck } from './checks/http';
import { icmpCheck } from './checks/icmp';
import { junitCheck } from './checks/junit';
import { ldapCheck } from './checks/ldap';
import { mysqlCheck } from './checks/mysql';
import { postgresCheck } from './checks/postgres';
import { prometheusCheck } from './checks/prometheus';
import { redisCheck } from './checks/redis';
import { tcpCheck } from './checks/tcp';
import { tlsCheck } from './checks/tls';
import { webhookCheck } from './checks/webhook';
import type { RegisteredCheckType } from './types';

/** Every check type this version runs, in the order the type picker shows them. One line per type. */
export const CHECK_TYPES: readonly RegisteredCheckType[] = [
  httpCheck,
  tcpCheck,
  tlsCheck,
  dnsCheck,
  icmpCheck,
  execCheck,
  folderCheck,
  postgresCheck,
  mysqlCheck,
  redisCheck,
  ldapCheck,
  prometheusCheck,
  junitCheck,
  webhookCheck,
];

export function checkTypeOf(type: string): RegisteredCheckType | undefined {
  return CHECK_TYPES.find((item) => item.type === type);
}
