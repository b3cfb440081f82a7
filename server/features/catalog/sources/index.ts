import { defineSource, type AnySource } from '../types';
import { execSource } from './exec';
import { fileSource } from './file';
import { gitSource } from './git';
import { httpSource } from './http';
import { kubernetesFileSource } from './kubernetes-file';
import { sqlSource } from './sql';

/** Every scraper type, by its key under spec. Adding a type is one module and one line here. */
export const SOURCES: readonly AnySource[] = [
  defineSource(fileSource),
  defineSource(kubernetesFileSource),
  defineSource(sqlSource),
  defineSource(httpSource),
  defineSource(execSource),
  defineSource(gitSource),
];

export function sourceOf(key: string): AnySource | undefined {
  return SOURCES.find((source) => source.key === key);
}
