import { Settings2 } from 'lucide-react';
import { lazy, Suspense } from 'react';
import { IconButton } from '@web/ui/primitives/icon-button';
import { Loading } from '@web/ui/primitives/loading';
import { Popover } from '@web/ui/primitives/popover';

// The panel's controls and the time zone list load on first open, outside the shell's first download.
const PreferencesPanel = lazy(() => import('./preferences-panel'));

/** The gear menu of spec §2: five display preferences (web/lib/preferences.ts keeps them). */
export function PreferencesMenu() {
  return (
    <Popover label="Preferences" className="w-80" trigger={<IconButton label="Preferences" icon={<Settings2 className="size-4" aria-hidden="true" />} />}>
      <Suspense fallback={<Loading className="py-6" />}>
        <PreferencesPanel />
      </Suspense>
    </Popover>
  );
}
