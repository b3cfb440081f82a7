import { z } from 'zod';
import { DEFAULT_NAMESPACE, parseResourceYaml, resourceToYaml, type ParsedYaml, type ResourceDocument, type YamlKind } from '@web/features/canaries/model/document';
import { jsonValueSchema, type JsonValue } from '@web/features/settings/resources/form-values';
import { SCRAPER_SPEC_FIELDS } from './scraper-types';

/** A scraper as the editor holds it: name, namespace, labels and the ScrapeConfig spec. */
export type ScraperDocument = ResourceDocument;

/** `kind: ScrapeConfig` as config-db writes it, so the Code tab's text applies with `watchkeeper apply`. */
export const SCRAPE_CONFIG_YAML: YamlKind = {
  apiVersion: 'configs.flanksource.com/v1',
  kind: 'ScrapeConfig',
  noun: 'scraper',
  specHint: 'the schedule and the scrapers by type (file, sql, …)',
  leadingKeys: SCRAPER_SPEC_FIELDS,
};

/** A config_scrapers row, as far as the editor reads it. */
export interface ScraperRowLike {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  spec: Record<string, unknown>;
  description: string | null;
}

export function rowToDocument(row: ScraperRowLike | null): ScraperDocument {
  if (!row) return { name: '', namespace: DEFAULT_NAMESPACE, labels: {}, spec: {} };
  return { name: row.name, namespace: row.namespace || DEFAULT_NAMESPACE, labels: row.labels, spec: row.spec };
}

export function documentToYaml(doc: ScraperDocument): string {
  return resourceToYaml(doc, SCRAPE_CONFIG_YAML);
}

export function parseScraperYaml(source: string): ParsedYaml {
  return parseResourceYaml(source, SCRAPE_CONFIG_YAML);
}

/** The body of POST and PUT /api/catalog/scrapers. */
export interface ScraperWrite {
  name: string;
  namespace: string;
  labels: Record<string, string>;
  description?: string;
  spec: Record<string, JsonValue>;
}

/**
 * What is saved: the document, and the description the row already has (the editor does not show it;
 * leaving it out of a PUT would clear it).
 */
export function documentToWrite(doc: ScraperDocument, description: string | null = null): ScraperWrite {
  return {
    name: doc.name.trim(),
    namespace: doc.namespace.trim() || DEFAULT_NAMESPACE,
    labels: doc.labels,
    ...(description ? { description } : {}),
    spec: z.record(z.string(), jsonValueSchema).parse(doc.spec),
  };
}
