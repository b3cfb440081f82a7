import { withoutSecrets } from '../../peers/credentials';
import type { ConnectionTester, ResolvedConnection, TestOutcome } from '../types';
import { testAnthropic, testCloud, testGithub, testGitlab, testOllama, testOpenai } from './cloud';
import { testEmail } from './email';
import { testFolder } from './folder';
import { testGit } from './git';
import { testDynatrace, testElasticsearch, testHttp, testPrometheus } from './http';
import { testLdap } from './ldap';
import * as notify from './notifications';
import { testRedis } from './redis';
import { failed, reasonOf, secretsOf, untested } from './shared';
import { testSftp } from './sftp';
import { testMongo, testMysql, testPostgres, testSqlServer } from './sql';
import { testJmeter, testRestic, testSmb, testWindows } from './untestable';

/** One tester per connection type of common/connections.ts: adding a type is a module and one line here. */
const TESTERS: Readonly<Record<string, ConnectionTester>> = {
  anthropic: testAnthropic,
  ollama: testOllama,
  openai: testOpenai,
  aws: testCloud,
  s3: testCloud,
  azure: testCloud,
  azure_devops: testCloud,
  discord: notify.testDiscord,
  dynatrace: testDynatrace,
  elasticsearch: testElasticsearch,
  email: testEmail,
  google_cloud: testCloud,
  generic_webhook: notify.testGenericWebhook,
  git: testGit,
  github: testGithub,
  google_chat: notify.testGoogleChat,
  http: testHttp,
  ifttt: notify.testIfttt,
  jmeter: testJmeter,
  kubernetes: testCloud,
  ldap: testLdap,
  matrix: notify.testMatrix,
  mattermost: notify.testMattermost,
  mongo: testMongo,
  mysql: testMysql,
  ntfy: notify.testNtfy,
  opsgenie: notify.testOpsgenie,
  postgres: testPostgres,
  prometheus: testPrometheus,
  pushbullet: notify.testPushbullet,
  pushover: notify.testPushover,
  redis: testRedis,
  restic: testRestic,
  rocketchat: notify.testRocketChat,
  sftp: testSftp,
  slack: notify.testSlack,
  smb: testSmb,
  sql_server: testSqlServer,
  teams: notify.testTeams,
  telegram: notify.testTelegram,
  windows: testWindows,
  zulip_chat: notify.testZulip,
  folder: testFolder,
  gcs: testCloud,
  gitlab: testGitlab,
  aws_kms: testCloud,
  azure_key_vault: testCloud,
  gcp_kms: testCloud,
};

/** The types a tester exists for (every type of CONNECTION_TYPES; a test holds them together). */
export const TESTED_TYPES: readonly string[] = Object.keys(TESTERS);

/** Resolves when the signal ends the test, so that a peer that never answers cannot hold the caller. */
function deadline(signal: AbortSignal): { promise: Promise<TestOutcome>; dispose(): void } {
  let dispose = () => undefined as void;
  const promise = new Promise<TestOutcome>((resolve) => {
    const stop = () => resolve(failed('no answer within the time limit'));
    if (signal.aborted) return stop();
    signal.addEventListener('abort', stop, { once: true });
    dispose = () => signal.removeEventListener('abort', stop);
  });
  return { promise, dispose };
}

/**
 * Tests a connection as POST /api/connection/test/{id} does: talks to the peer the way its type works and
 * says what it answered. Never throws (a failure is `ok: false` with the reason), answers by the time the
 * signal aborts, and no message carries a secret of the connection, whatever a peer or driver put in it.
 */
export async function testConnection(connection: ResolvedConnection, signal: AbortSignal): Promise<TestOutcome> {
  const tester = Object.hasOwn(TESTERS, connection.type) ? TESTERS[connection.type] : undefined;
  if (!tester) return untested(`${JSON.stringify(connection.type)} is not a known connection type`);
  let secrets: string[] = [];
  const stop = deadline(signal);
  let outcome: TestOutcome;
  try {
    secrets = secretsOf(connection);
    outcome = await Promise.race([tester(connection, signal), stop.promise]);
  } catch (error) {
    // A tester's own bug: its message may still name the peer's answer, so it is scrubbed like any other.
    outcome = failed(`the test failed: ${reasonOf(error, signal, secrets)}`);
  } finally {
    stop.dispose();
  }
  return { ...outcome, message: withoutSecrets(outcome.message, secrets) };
}
