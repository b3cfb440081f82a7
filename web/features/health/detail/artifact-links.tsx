import { formatBytes } from '@common/format';
import { Download } from 'lucide-react';
import { artifactDownloadUrl, type RunArtifact } from './run-artifacts';

/** A run's artifacts as download links (name and size): plain links, so Tab reaches each and Enter saves it. */
export function ArtifactLinks({ artifacts }: { artifacts: readonly RunArtifact[] }) {
  if (artifacts.length === 0) return null;
  return (
    <ul aria-label="Artifacts" className="flex flex-col gap-0.5">
      {artifacts.map((artifact) => (
        <li key={artifact.id} className="flex min-w-0 items-center gap-1.5">
          <a
            href={artifactDownloadUrl(artifact.id)}
            download={artifact.filename}
            className="inline-flex min-w-0 items-center gap-1 rounded text-blue-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
            onClick={(event) => event.stopPropagation()}
          >
            <Download aria-hidden="true" className="size-3.5 shrink-0" />
            <span className="truncate">{artifact.filename}</span>
          </a>
          <span className="shrink-0 text-xs text-gray-500 tabular-nums">
            {formatBytes(artifact.size)}
            {artifact.truncated ? ' (truncated)' : ''}
          </span>
        </li>
      ))}
    </ul>
  );
}
