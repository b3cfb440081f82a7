import { stringify } from 'yaml';

export const FORMATS = ['yaml', 'json'] as const;
export type ConfigFormat = (typeof FORMATS)[number];

/** The stored config as YAML or as indented JSON (the two ways a person reads it). */
export function configText(config: unknown, format: ConfigFormat): string {
  if (format === 'json') return `${JSON.stringify(config, null, 2)}\n`;
  return stringify(config, { indent: 2, lineWidth: 0 });
}
