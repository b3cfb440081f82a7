import { defineSource, type AnySource } from '../types';
import { fileSource } from './file';
import { kubernetesFileSource } from './kubernetes-file';

/** Every scraper type, by its key under spec. Adding a type is one module and one line here. */
export const SOURCES: readonly AnySource[] = [defineSource(fileSource), defineSource(kubernetesFileSource)];

export function sourceOf(key: string): AnySource | undefined {
  return SOURCES.find((source) => source.key === key);
}
