import { FileKey, FileText } from 'lucide-react';
import type { SettingsResource } from '@web/features/settings/resources/types';
import { secretsApi } from './api';

const keysOf = (row: Record<string, unknown>): string => (Array.isArray(row.keys) ? row.keys.filter((key) => typeof key === 'string').join(', ') : '');

/** What secrets and config maps share: admins only like connections, listed by their keys, one editor. */
function keyedResource(options: Pick<SettingsResource, 'table' | 'label' | 'singular' | 'icon'> & { url: '/api/secrets' | '/api/config_maps' }): SettingsResource {
  return {
    table: options.table,
    label: options.label,
    singular: options.singular,
    icon: options.icon,
    feature: 'settings.connections',
    access: { read: 'connections', write: 'connections' },
    columns: [
      { key: 'name', header: 'Name' },
      { key: 'namespace', header: 'Namespace' },
      { key: 'keys', header: 'Keys', value: keysOf },
      { key: 'source', header: 'Source', kind: 'source' },
      { key: 'updated_at', header: 'Updated', kind: 'date' },
    ],
    fields: [],
    editor: () => import('./data-editor'),
    api: secretsApi(options.url),
  };
}

/**
 * Secrets (Kubernetes-shaped, namespaced): what connection fields refer to as `secret://name/key`. The
 * list and the form show keys only; values are written, never read back.
 */
export const secretsResource = keyedResource({ table: 'secrets', label: 'Secrets', singular: 'Secret', icon: FileKey, url: '/api/secrets' });

/** Config maps: plain (not secret) values that connection fields refer to as `configmap://name/key`. */
export const configMapsResource = keyedResource({ table: 'config_maps', label: 'Config Maps', singular: 'Config Map', icon: FileText, url: '/api/config_maps' });
