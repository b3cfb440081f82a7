import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { currentOrganization } from '../../platform/db/tenant';
import { isRecord, messageOf } from '../../platform/errors';
import { evaluateCel, goText } from '../../platform/expressions';
import type { MetricSample } from './transform';

/** Prometheus metric names and label names (the exposition format's rules). */
export const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
export const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
export const METRIC_TYPES = ['counter', 'gauge', 'histogram'] as const;

/**
 * A check's `metrics` (canary-checker's metrics exporter): each `{name, type, value, labels}` evaluated over
 * the check's variables — `value` is CEL answering a number, a label is a `value` or a CEL `valueExpr`.
 * A metric that cannot be evaluated is a problem of the result, never a crash.
 */
export function metricSamples(spec: unknown, variables: Record<string, unknown>): { samples: MetricSample[]; problems: string[] } {
  const samples: MetricSample[] = [];
  const problems: string[] = [];
  if (!Array.isArray(spec)) return { samples, problems };
  spec.forEach((metric, index) => {
    if (!isRecord(metric) || typeof metric.name !== 'string' || metric.name === '' || metric.value === undefined || metric.value === '') return;
    const where = `metrics[${index}]`;
    try {
      const raw = evaluateCel(`${where}.value`, String(metric.value), variables);
      const value = typeof raw === 'number' ? raw : Number(goText(raw));
      if (!Number.isFinite(value)) throw new Error(`${where}.value: ${goText(raw)} is not a number`);
      const labels: Record<string, string> = {};
      for (const label of Array.isArray(metric.labels) ? metric.labels : []) {
        if (!isRecord(label) || typeof label.name !== 'string') continue;
        labels[label.name] = typeof label.valueExpr === 'string' && label.valueExpr !== '' ? goText(evaluateCel(`${where}.labels.${label.name}`, label.valueExpr, variables)) : String(label.value ?? '');
      }
      samples.push({ name: metric.name, type: typeof metric.type === 'string' ? metric.type : 'gauge', value, labels });
    } catch (error) {
      problems.push(messageOf(error));
    }
  });
  return { samples, problems };
}

type Collector = Counter<string> | Gauge<string> | Histogram<string>;

/**
 * The checks' own metrics on /metrics, in the registry of the process (as canary-checker exports them from
 * the instance that ran the check). A metric is one collector per name, type and label names; the same name
 * with another type or other labels is refused with a problem naming it.
 */
export class CheckMetrics {
  private readonly collectors = new Map<string, { key: string; collector: Collector }>();
  /** How long each batch of results took to write (result-writer.ts: one transaction a batch). */
  readonly resultWrites: Histogram;

  constructor(private readonly registry: Registry) {
    this.resultWrites = new Histogram({
      name: 'watchkeeper_check_result_write_seconds',
      help: 'Time to write one batch of check results (one transaction: raw rows, rollups, checks, events)',
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
      registers: [registry],
    });
  }

  /** Exports samples; answers the problems (one per sample that could not be exported). */
  export(samples: readonly MetricSample[]): string[] {
    // /metrics is public and one per process: an organization sharing this console (hosted mode) would show
    // its metrics to everyone, and take names from other organizations. Its own backend exports them.
    if (samples.length > 0 && currentOrganization() !== undefined) {
      return [`metrics: not exported: this console's /metrics is shared by its organizations (an organization with its own backend exports its checks' metrics there)`];
    }
    const problems: string[] = [];
    for (const sample of samples) {
      try {
        this.exportOne(sample);
      } catch (error) {
        problems.push(`metric ${sample.name}: ${messageOf(error)}`);
      }
    }
    return problems;
  }

  private exportOne(sample: MetricSample): void {
    if (!METRIC_NAME.test(sample.name)) throw new Error('is not a Prometheus metric name ([a-zA-Z_:][a-zA-Z0-9_:]*)');
    const labelNames = Object.keys(sample.labels).sort();
    const bad = labelNames.find((name) => !LABEL_NAME.test(name));
    if (bad) throw new Error(`label ${JSON.stringify(bad)} is not a Prometheus label name`);
    const key = `${sample.type}|${labelNames.join(',')}`;
    let entry = this.collectors.get(sample.name);
    if (entry && entry.key !== key) throw new Error(`is already exported as a ${entry.key.split('|')[0]} with labels [${entry.key.split('|')[1]}]; one name has one type and one set of labels`);
    if (!entry) {
      if (this.registry.getSingleMetric(sample.name)) throw new Error('is a name this console already exports');
      const options = { name: sample.name, help: `check metric ${sample.name}`, labelNames, registers: [this.registry] };
      const collector: Collector =
        sample.type === 'counter' ? new Counter(options) : sample.type === 'histogram' ? new Histogram(options) : sample.type === 'gauge' ? new Gauge(options) : unknownType(sample.type);
      entry = { key, collector };
      this.collectors.set(sample.name, entry);
    }
    const { collector } = entry;
    if (collector instanceof Histogram) collector.observe(sample.labels, sample.value);
    else if (collector instanceof Gauge) collector.set(sample.labels, sample.value);
    else if (sample.value > 0) collector.inc(sample.labels, sample.value);
  }
}

function unknownType(type: string): never {
  throw new Error(`type ${JSON.stringify(type)} is not one of ${METRIC_TYPES.join(', ')}`);
}

const exporters = new WeakMap<Registry, CheckMetrics>();

/** The exporter of a registry (one per app: tests build several apps in one process). */
export function checkMetricsOf(registry: Registry): CheckMetrics {
  let exporter = exporters.get(registry);
  if (!exporter) {
    exporter = new CheckMetrics(registry);
    exporters.set(registry, exporter);
  }
  return exporter;
}
