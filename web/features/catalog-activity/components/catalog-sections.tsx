import { NavLink } from 'react-router';
import { appRoutes } from '@web/app/routes';
import { cn } from '@web/ui/primitives/cn';

interface Section {
  label: string;
  to: string;
  /** The route path that must be in this build for the link to show (DESIGN §9: no link to nowhere). */
  path: string;
}

const SECTIONS: readonly Section[] = [
  { label: 'Catalog', to: '/catalog', path: 'catalog' },
  { label: 'Changes', to: '/catalog/changes', path: 'catalog/changes' },
  { label: 'Insights', to: '/catalog/insights', path: 'catalog/insights' },
  { label: 'Scrapers', to: '/catalog/scrapers', path: 'catalog/scrapers' },
];

/** The catalog's pages that this build has (spec §2: /catalog, /catalog/changes, /catalog/insights, /catalog/scrapers). */
export function catalogSections(paths: readonly string[] = appRoutes.map((route) => route.path)): Section[] {
  return SECTIONS.filter((section) => paths.includes(section.path));
}

/** Links between the catalog's pages, in the top bar of each. */
export function CatalogSections() {
  return (
    <nav aria-label="Catalog sections" className="flex items-center gap-1">
      {catalogSections().map((section) => (
        <NavLink
          key={section.to}
          to={section.to}
          // The catalog list is only itself; the others stay marked on their own detail pages.
          end={section.to === '/catalog'}
          className={({ isActive }) =>
            cn(
              'rounded-md px-2.5 py-1 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-blue-600',
              isActive ? 'bg-blue-50 text-blue-700' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
            )
          }
        >
          {section.label}
        </NavLink>
      ))}
    </nav>
  );
}
