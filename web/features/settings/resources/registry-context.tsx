import { createContext, useContext } from 'react';
import { settingsResources, type SettingsResource } from './registry';

/** The registry the generic pages read; tests provide their own entries. */
export const ResourceRegistryContext = createContext<readonly SettingsResource[]>(settingsResources);

export function useResourceRegistry(): readonly SettingsResource[] {
  return useContext(ResourceRegistryContext);
}
