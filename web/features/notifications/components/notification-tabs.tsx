import { Link } from 'react-router';
import { cn } from '@web/ui/primitives/cn';
import { NOTIFICATIONS_PATH, SILENCES_PATH } from '../paths';

const TABS = [
  { id: 'rules', label: 'Rules', to: NOTIFICATIONS_PATH },
  { id: 'silences', label: 'Silences', to: SILENCES_PATH },
] as const;

/** The notifications area's two lists as links, so each is its own URL. */
export function NotificationTabs({ active }: { active: 'rules' | 'silences' }) {
  return (
    <nav aria-label="Notifications sections" className="flex gap-1 border-b border-slate-200">
      {TABS.map((tab) => (
        <Link
          key={tab.id}
          to={tab.to}
          aria-current={tab.id === active ? 'page' : undefined}
          className={cn(
            '-mb-px inline-flex items-center border-b-2 px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-blue-600',
            tab.id === active ? 'border-blue-600 text-blue-700' : 'border-transparent text-slate-600 hover:text-slate-900',
          )}
        >
          {tab.label}
        </Link>
      ))}
    </nav>
  );
}
