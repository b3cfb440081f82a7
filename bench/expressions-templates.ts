// Go templates (server/platform/expressions/template): renders per second of typical display templates,
// once compiled (renderTemplate keeps compiled templates by text), and parses per second of new text.
//
//   npx tsx bench/expressions-templates.ts
import { renderTemplate } from '../server/platform/expressions/template';
import { compileTemplate } from '../server/platform/expressions/template/index';
import { GoDuration } from '../server/platform/expressions/values';
import { perSecond } from './_rate';

const cases: { label: string; template: string; data: Record<string, unknown> }[] = [
  {
    label: 'display (pipeline, field, range)',
    template: '{{ .name | toUpper }} took {{ .duration }}ms, {{ range .items }}{{ .id }},{{ end }}',
    data: { name: 'checkout-api', duration: 142, items: [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }, { id: 5 }] },
  },
  {
    label: 'http display ({{.code}} in {{.elapsed}})',
    template: 'code={{.code}} in {{.elapsed}}',
    data: { code: 200, elapsed: new GoDuration(142_000_000n) },
  },
  {
    label: 'if / printf / gomplate funcs',
    template: '{{ if gt .count 0.0 }}{{ printf "%d items, %.1f%% used" (len .items) .ratio }}{{ else }}empty{{ end }} {{ .obj | toJSON }} {{ humanSize .bytes }}',
    data: { count: 3, ratio: 42.5, items: [1, 2, 3], obj: { b: 2, a: 1 }, bytes: 10485760 },
  },
];


const format = (value: number) => Math.round(value).toLocaleString('en-US');

console.log('Go templates, renders/s after compile caching (renderTemplate):');
for (const { label, template, data } of cases) {
  const output = renderTemplate('display.template', template, data);
  const renders = perSecond(() => renderTemplate('display.template', template, data), 1.5, 2000);
  console.log(`  ${label.padEnd(40)} ${format(renders).padStart(12)} renders/s   → ${JSON.stringify(output)}`);
}

let counter = 0;
const parses = perSecond(() => {
  counter++;
  compileTemplate('display.template', `{{ .name | toUpper }} took {{ .duration }}ms #${counter}, {{ range .items }}{{ .id }},{{ end }}`);
}, 1.5, 2000);
console.log(`  ${'parse of new text (cache miss)'.padEnd(40)} ${format(parses).padStart(12)} parses/s`);
