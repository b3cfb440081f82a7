import type { ConnectionTester } from '../types';
import { untested } from './shared';

/** A type this server has no client for: the test says which client is missing and tests nothing. */
const missing =
  (label: string, what: string): ConnectionTester =>
  async () =>
    untested(`${label} connections cannot be tested here: ${what}`);

export const testSmb = missing('SMB', 'this server has no SMB client (no SMB library is installed)');
export const testWindows = missing('Windows', 'this server has no WinRM or WMI client to log in to a Windows host');
export const testRestic = missing('Restic', 'this server has no restic client (Watchkeeper does not run the restic command)');
export const testJmeter = missing('JMeter', 'this server has no JMeter client (Watchkeeper does not run JMeter)');
