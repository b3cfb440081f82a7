import { useAccess } from '@web/app/session';
import type { ResourceAccess, SettingsResource } from './types';

/**
 * Spec §6 for a registered table: its read object guards the pages, its write object each change. The
 * console only hides what the server would refuse; the server still decides.
 */
export function useResourceAccess(resource: SettingsResource): ResourceAccess {
  const { ready, can } = useAccess();
  const { read, write } = resource.access;
  return { ready, read: can(read, 'read'), create: can(write, 'create'), update: can(write, 'update'), delete: can(write, 'delete') };
}
