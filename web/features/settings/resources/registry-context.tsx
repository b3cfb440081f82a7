import { createContext, useContext } from 'react';
import type { SettingsResource } from './types';

/**
 * The registered tables the generic pages read. The app provides its registry where it is composed
 * (web/app/settings-resources.ts, through web/app/providers.tsx); tests provide their own entries.
 */
export const ResourceRegistryContext = createContext<readonly SettingsResource[]>([]);

export function useResourceRegistry(): readonly SettingsResource[] {
  return useContext(ResourceRegistryContext);
}

/** The entry of a table; only registered tables are reachable, so a URL cannot name any other relation. */
export function findResource(table: string | undefined, registry: readonly SettingsResource[]): SettingsResource | undefined {
  return table === undefined ? undefined : registry.find((resource) => resource.table === table);
}
