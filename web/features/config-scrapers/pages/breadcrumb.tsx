import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { SCRAPERS_PATH } from '../paths';

/** Scrapers / {name}, with what follows the name (a source badge). */
export function ScraperBreadcrumb({ name, children }: { name: string; children?: ReactNode }) {
  return (
    <nav aria-label="Breadcrumb" className="mb-4 flex items-center gap-2 text-sm text-slate-600">
      <Link to={SCRAPERS_PATH} className="text-blue-700 hover:underline">
        Scrapers
      </Link>
      <span aria-hidden="true">/</span>
      <span aria-current="page" className="font-medium text-slate-900">
        {name}
      </span>
      {children}
    </nav>
  );
}
