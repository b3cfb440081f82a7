import { queryMysql, queryPostgres, SqlConnectionInvalid } from '../../peers/sql';
import type { ConnectionTester } from '../types';
import { failed, passed, reasonOf, secretsOf, TEST_TIMEOUT_MS, untested } from './shared';

/** The first column of the first row as text: what `SELECT version()` answers. */
function firstValue(rows: ReadonlyArray<Record<string, unknown>>): string {
  const value = rows[0] ? Object.values(rows[0])[0] : undefined;
  return typeof value === 'string' ? value : String(value ?? '');
}

/**
 * `postgres`: connects with the url (user info filled from username/password when it has none, see
 * withCredentials), runs `SELECT version()`, answers the server's version ("PostgreSQL 16.4 (Debian …)").
 */
export const testPostgres: ConnectionTester = async (connection, signal) => {
  try {
    const rows = await queryPostgres(connection, 'SELECT version()', { timeoutMs: TEST_TIMEOUT_MS, signal, applicationName: 'watchkeeper-connection-test' });
    // version() goes on with the platform and compiler ("… on x86_64-pc-linux-gnu, compiled by …").
    return passed(firstValue(rows).replace(/ on \S+, compiled by .*$/, '') || 'connected (no version answered)');
  } catch (error) {
    if (error instanceof SqlConnectionInvalid) return failed(error.message);
    return failed(`could not connect: ${reasonOf(error, signal, secretsOf(connection))}`);
  }
};

/** `mysql` (MySQL and MariaDB): connects as postgres does and answers `SELECT VERSION()`. */
export const testMysql: ConnectionTester = async (connection, signal) => {
  try {
    const rows = await queryMysql(connection, 'SELECT VERSION()', { timeoutMs: TEST_TIMEOUT_MS, signal });
    const version = firstValue(rows);
    return passed(/mariadb/i.test(version) ? `MariaDB ${version.replace(/-MariaDB.*$/i, '')}` : `MySQL ${version}`);
  } catch (error) {
    if (error instanceof SqlConnectionInvalid) return failed(error.message);
    return failed(`could not connect: ${reasonOf(error, signal, secretsOf(connection))}`);
  }
};

/** No SQL Server client (mssql or tedious) is a dependency of this server. */
export const testSqlServer: ConnectionTester = async () =>
  untested('SQL Server connections cannot be tested here: this server has no SQL Server client (neither the mssql nor the tedious package is installed)');

/** No MongoDB driver is a dependency of this server. */
export const testMongo: ConnectionTester = async () => untested('MongoDB connections cannot be tested here: this server has no MongoDB driver (the mongodb package is not installed)');
