import type { ViewPanel as Panel } from '../../api/schema';
import { formatNumber, toNumber, withUnit } from '../../model/format';
import { bars, gaugeOptionsOf, heatCells, panelOptions, pieSlices, properties, rowValue, textLines, timeSeries } from '../../model/panels';
import { BarGauges, Heatmap, PieChart, RadialGauge, TimeSeriesChart } from './charts';

const NO_DATA = <p className="text-sm text-slate-500">No data available</p>;

function PanelBody({ panel }: { panel: Panel }) {
  switch (panel.type) {
    case 'piechart': {
      const slices = pieSlices(panel);
      return slices.length === 0 ? NO_DATA : <PieChart slices={slices} showLabels={panelOptions(panel, 'piechart').showLabels === true} />;
    }
    case 'number': {
      const value = rowValue(panel.rows[0]);
      if (value === null) return NO_DATA;
      const options = panelOptions(panel, 'number');
      const unit = typeof options.unit === 'string' ? options.unit : undefined;
      return <p className="text-3xl font-semibold tabular-nums text-slate-900">{withUnit(formatNumber(value, toNumber(options.precision)), unit)}</p>;
    }
    case 'gauge': {
      const value = rowValue(panel.rows[0]);
      const options = gaugeOptionsOf(panel, 'gauge');
      return value === null ? NO_DATA : <RadialGauge value={value} options={options} unit={options.unit} />;
    }
    case 'bargauge': {
      const list = bars(panel);
      return list.length === 0 ? NO_DATA : <BarGauges bars={list} options={gaugeOptionsOf(panel, 'bargauge')} />;
    }
    case 'timeseries':
      return timeSeries(panel).length === 0 ? NO_DATA : <TimeSeriesChart panel={panel} />;
    case 'heatmap': {
      const cells = heatCells(panel);
      const mode = panelOptions(panel, 'heatmap').mode;
      return cells.length === 0 ? NO_DATA : <Heatmap cells={cells} mode={typeof mode === 'string' ? mode : 'calendar'} />;
    }
    case 'text':
      return (
        <div className="flex flex-col gap-1 text-sm text-slate-700">
          {textLines(panel).map((line, i) => (
            <p key={i}>{line}</p>
          ))}
        </div>
      );
    case 'properties':
      return (
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          {properties(panel).map((p, i) => (
            <div key={i} className="contents">
              <dt className="text-slate-500">{p.label}</dt>
              <dd className="font-medium text-slate-900">{p.value}</dd>
            </div>
          ))}
        </dl>
      );
    case 'table':
      return <PanelTable panel={panel} />;
    default:
      return <p className="text-sm text-slate-500">Panels of type {panel.type} are not drawn.</p>;
  }
}

function PanelTable({ panel }: { panel: Panel }) {
  if (panel.rows.length === 0) return NO_DATA;
  const keys = Object.keys(panel.rows[0] ?? {});
  return (
    <table className="w-full text-left text-sm">
      <thead>
        <tr className="border-b border-slate-200 text-xs text-slate-500">
          {keys.map((key) => (
            <th key={key} scope="col" className="py-1 pr-2 font-medium">
              {key}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {panel.rows.map((row, i) => (
          <tr key={i} className="border-b border-slate-100 last:border-0">
            {keys.map((key) => {
              const v = row[key];
              return (
                <td key={key} className="py-1 pr-2 tabular-nums text-slate-800">
                  {v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v)}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One panel as a card: its name, description, and the drawing — or its error (a panel's SQL failed). */
export function ViewPanelCard({ panel }: { panel: Panel }) {
  return (
    <section aria-label={panel.name} className="flex min-w-56 flex-1 flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4">
      <header>
        <h3 className="text-sm font-semibold text-slate-900">{panel.name}</h3>
        {panel.description ? <p className="text-xs text-slate-500">{panel.description}</p> : null}
      </header>
      {panel.error ? (
        <p role="alert" className="text-sm text-red-600">
          {panel.error}
        </p>
      ) : (
        <PanelBody panel={panel} />
      )}
    </section>
  );
}
