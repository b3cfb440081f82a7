import { insightsBySeverity, type ComponentProperty, type HealthCounts, type TopologyComponent } from '@common/topology';
import { EyeOff, Server } from 'lucide-react';
import { Link } from 'react-router';
import { ConfigHealthDot, HEALTH_TEXT } from '@web/features/catalog/components';
import { agentLabel } from '@web/features/agents/model';
import { LOCAL_AGENT_ID } from '@web/features/agents/schema';
import { cn } from '@web/ui/primitives/cn';
import { ComponentIcon } from './component-icon';

const COLOR_CLASSES: Readonly<Record<string, string>> = { red: 'text-red-600', orange: 'text-orange-600', green: 'text-green-700', gray: 'text-slate-500', yellow: 'text-yellow-600' };

export const componentName = (component: Pick<TopologyComponent, 'name' | 'text'>) => component.text || component.name;

/** A property's value as shown: the number with its unit (1,234 GB), a text, or a link. */
export function PropertyValue({ property }: { property: ComponentProperty }) {
  const colour = property.color ? COLOR_CLASSES[property.color] : undefined;
  const style = property.color && !colour ? { color: property.color } : undefined;
  if (property.type === 'url' && property.text) {
    return (
      <a href={property.text} target="_blank" rel="noreferrer" className="truncate text-blue-700 hover:underline">
        {property.text.replace(/^https?:\/\//, '')}
      </a>
    );
  }
  const text = property.value !== undefined ? `${new Intl.NumberFormat().format(property.value)}${property.unit ? ` ${property.unit}` : ''}` : (property.text ?? '');
  return (
    <span className={cn('truncate tabular-nums', colour)} style={style} title={property.tooltip ?? text}>
      {text}
    </span>
  );
}

const total = (counts: HealthCounts) => counts.healthy + counts.unhealthy + counts.warning + counts.unknown;

/** '3 healthy · 1 unhealthy' with the spec §4 colours, zeros left out. */
export function HealthCountsText({ counts, unhealthyWord = 'unhealthy', healthyWord = 'healthy' }: { counts: HealthCounts; unhealthyWord?: string; healthyWord?: string }) {
  const parts: Array<[keyof HealthCounts, string]> = [
    ['unhealthy', unhealthyWord],
    ['warning', 'warning'],
    ['healthy', healthyWord],
    ['unknown', 'unknown'],
  ];
  return (
    <span className="inline-flex flex-wrap items-center gap-x-2 gap-y-0.5">
      {parts
        .filter(([key]) => counts[key] > 0)
        .map(([key, word]) => (
          <span key={key} className="inline-flex items-center gap-1 tabular-nums">
            <ConfigHealthDot health={key} className="size-2" />
            {counts[key]} {word}
          </span>
        ))}
    </span>
  );
}

/**
 * A component as a card (spec §2 /topology, §9 width): icon, name, health and why, properties (headline
 * ones large), the child, check and config summaries, open insights, and its children when loaded.
 */
export function ComponentCard({ component, width }: { component: TopologyComponent; width: number | string }) {
  const name = componentName(component);
  const headline = component.properties.filter((property) => property.headline);
  const others = component.properties.filter((property) => !property.headline);
  const insights = Object.values(insightsBySeverity(component.summary.insights)).reduce((sum, count) => sum + count, 0);
  const children = component.components ?? [];
  return (
    <article
      aria-label={name}
      data-health={component.health}
      style={{ width }}
      className={cn(
        'flex max-w-full flex-col gap-2 rounded-lg border bg-white p-3 shadow-sm',
        component.health === 'unhealthy' ? 'border-red-200' : component.health === 'warning' ? 'border-yellow-200' : 'border-slate-200',
      )}
    >
      <header className="flex min-w-0 items-start gap-2">
        <ComponentIcon icon={component.icon} type={component.type} className="mt-0.5 size-5 shrink-0 text-slate-600" />
        <div className="min-w-0 flex-1">
          <Link to={`/topology/${component.id}`} className="block truncate font-semibold text-slate-900 hover:text-blue-700 hover:underline" title={component.tooltip ?? name}>
            {name}
          </Link>
          <p className="flex items-center gap-1.5 text-xs text-slate-500">
            <ConfigHealthDot health={component.health} />
            <span>{HEALTH_TEXT[component.health]}</span>
            {component.status ? <span className="truncate">· {component.status}</span> : null}
            {component.type ? <span className="truncate">· {component.type}</span> : null}
            {component.agent_id && component.agent_id !== LOCAL_AGENT_ID ? (
              <span className="inline-flex shrink-0 items-center gap-0.5" title="The agent that pushed it">
                · <Server className="size-3" aria-hidden="true" />
                <span>{agentLabel(component.agent_id, new Map(component.agent_name ? [[component.agent_id, component.agent_name]] : []))}</span>
              </span>
            ) : null}
          </p>
        </div>
        {component.hidden ? <EyeOff className="size-4 shrink-0 text-slate-400" aria-label="Hidden component" /> : null}
      </header>
      {component.status_reason && component.health !== 'healthy' ? (
        <p className={cn('text-xs', component.health === 'unhealthy' ? 'text-red-700' : 'text-slate-600')}>{component.status_reason}</p>
      ) : null}
      {headline.length > 0 ? (
        <dl className="flex flex-wrap gap-4">
          {headline.map((property) => (
            <div key={property.name} className="min-w-0">
              <dt className="text-xs text-slate-500">{property.label ?? property.name}</dt>
              <dd className="text-xl font-semibold text-slate-900">
                <PropertyValue property={property} />
              </dd>
            </div>
          ))}
        </dl>
      ) : null}
      {others.length > 0 ? (
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs">
          {others.map((property) => (
            <div key={property.name} className="contents">
              <dt className="text-slate-500">{property.label ?? property.name}</dt>
              <dd className="min-w-0 truncate text-slate-800">
                <PropertyValue property={property} />
              </dd>
            </div>
          ))}
        </dl>
      ) : null}
      <dl className="flex flex-col gap-1 border-t border-slate-100 pt-2 text-xs text-slate-600">
        {component.children_count > 0 ? (
          <div className="flex gap-2">
            <dt className="w-20 shrink-0 text-slate-500">Components</dt>
            <dd>
              <HealthCountsText counts={component.summary.children} />
            </dd>
          </div>
        ) : null}
        {total(component.summary.checks) > 0 ? (
          <div className="flex gap-2">
            <dt className="w-20 shrink-0 text-slate-500">Checks</dt>
            <dd>
              <HealthCountsText counts={component.summary.checks} unhealthyWord="failing" healthyWord="passing" />
            </dd>
          </div>
        ) : null}
        {total(component.summary.configs) > 0 ? (
          <div className="flex gap-2">
            <dt className="w-20 shrink-0 text-slate-500">Configs</dt>
            <dd>
              <HealthCountsText counts={component.summary.configs} />
            </dd>
          </div>
        ) : null}
        {insights > 0 ? (
          <div className="flex gap-2">
            <dt className="w-20 shrink-0 text-slate-500">Insights</dt>
            <dd className="tabular-nums">{insights} open</dd>
          </div>
        ) : null}
        {component.owner ? (
          <div className="flex gap-2">
            <dt className="w-20 shrink-0 text-slate-500">Team</dt>
            <dd>{component.owner}</dd>
          </div>
        ) : null}
      </dl>
      {children.length > 0 ? (
        <ul aria-label={`Components of ${name}`} className="flex flex-col gap-0.5 border-t border-slate-100 pt-2">
          {children.slice(0, 8).map((child) => (
            <li key={child.id} className="flex min-w-0 items-center gap-1.5 text-xs">
              <ConfigHealthDot health={child.health} className="size-2" />
              <ComponentIcon icon={child.icon} type={child.type} className="size-3.5 shrink-0 text-slate-400" />
              <Link to={`/topology/${child.id}`} className="min-w-0 truncate text-slate-700 hover:text-blue-700 hover:underline">
                {componentName(child)}
              </Link>
            </li>
          ))}
          {children.length > 8 ? <li className="text-xs text-slate-500">and {children.length - 8} more</li> : null}
        </ul>
      ) : null}
    </article>
  );
}
