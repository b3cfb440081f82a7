import { documentToYaml, parseCanaryYaml } from '../model/document';
import { documentToForm, formToDocument, type CanaryFormValues } from '../model/form-values';
import type { FormCodec } from './spec-editor';

/** The canary form of a document and back; `pushTypes` (webhook) are written as one mapping. */
export function canaryCodec(typeNames: readonly string[], pushTypes: readonly string[]): FormCodec<CanaryFormValues> {
  return {
    toForm: (doc) => documentToForm(doc, typeNames),
    toDocument: (values) => formToDocument(values, pushTypes),
    parse: parseCanaryYaml,
    toYaml: documentToYaml,
  };
}
