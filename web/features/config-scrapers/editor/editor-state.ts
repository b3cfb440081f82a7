import type { FormCodec } from '@web/features/canaries/editor/spec-editor';
import { documentToYaml, parseScraperYaml } from '../model/document';
import { documentToForm, formToDocument, type ScraperFormValues } from '../model/form-values';

/** The scraper form of a document and back. */
export function scraperCodec(typeNames: readonly string[]): FormCodec<ScraperFormValues> {
  return {
    toForm: (doc) => documentToForm(doc, typeNames),
    toDocument: formToDocument,
    parse: parseScraperYaml,
    toYaml: documentToYaml,
  };
}
