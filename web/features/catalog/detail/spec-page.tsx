import { lazy, Suspense, useMemo } from 'react';
import { useUrlParams } from '@web/lib/use-url-params';
import { patchSearchParams, pickOption, readSearchParams } from '@web/lib/url-state';
import { EmptyState } from '@web/ui/primitives/empty-state';
import { Loading } from '@web/ui/primitives/loading';
import { useChangeOptions } from '../api/tabs';
import type { ConfigDetail } from '../api/schema';
import { ConfigPage } from '../components/config-page';
import { ChangeDiffPanel, ComparePicker } from './compare';
import { configText, FORMATS, type ConfigFormat } from './config-text';
import { Segmented } from './segmented';

// CodeMirror loads with this page, not with the list or the shell.
const CodeEditor = lazy(() => import('@web/features/canaries/editor/code-editor'));

const NO_DIAGNOSTICS: never[] = [];
const ignore = () => undefined;

/** The config as last scraped (YAML or JSON, read-only) or, chosen in 'Compare with', an earlier change's diff. */
function SpecView({ config }: { config: ConfigDetail }) {
  const [params, setParams] = useUrlParams();
  const p = readSearchParams(params);
  const format: ConfigFormat = pickOption(p.format, FORMATS, 'yaml');
  const compare = p.compare || undefined;
  const changes = useChangeOptions(config.id);
  const text = useMemo(() => (config.config === null || config.config === undefined ? null : configText(config.config, format)), [config.config, format]);
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-3">
        <Segmented
          label="Format"
          value={format}
          options={[
            { value: 'yaml', label: 'YAML' },
            { value: 'json', label: 'JSON' },
          ]}
          onChange={(next) => setParams((current) => patchSearchParams(current, { format: next }, { format: 'yaml' }))}
        />
        <ComparePicker
          changes={changes.data ?? []}
          value={compare}
          disabled={changes.isLoading}
          onChange={(changeId) => setParams((current) => patchSearchParams(current, { compare: changeId }))}
        />
        {changes.error ? <span role="alert" className="text-sm text-red-600">{changes.error.message}</span> : null}
      </div>
      {compare ? (
        <ChangeDiffPanel changeId={compare} />
      ) : text === null ? (
        <EmptyState title="No details found" description="The scraper stored no config for this item." />
      ) : (
        <Suspense fallback={<Loading />}>
          {/* Keyed by format: the editor names its text area once, when it is made. */}
          <CodeEditor key={format} value={text} onChange={ignore} diagnostics={NO_DIAGNOSTICS} readOnly label={`Config (${format.toUpperCase()})`} />
        </Suspense>
      )}
    </div>
  );
}

/** Spec §2 /catalog/{id}: the item's header, tabs and its config. */
export default function SpecPage() {
  return <ConfigPage tab="spec">{(config) => <SpecView config={config} />}</ConfigPage>;
}
