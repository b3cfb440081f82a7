import { describe, expect, it } from 'vitest';
import { tokenColumns } from './columns';

const ids = (showOrganization: boolean) => tokenColumns({ showOwner: true, showOrganization, onDelete: () => undefined }).map((column) => column.id ?? ('accessorKey' in column ? String(column.accessorKey) : ''));

describe('the Tokens table', () => {
  it('has an Organization column in hosted (oidc) mode only, after the owner', () => {
    expect(ids(true)).toEqual(['name', 'scopes', 'owner', 'organization', 'created_at', 'expires_at', 'last_used_at', 'actions']);
    expect(ids(false)).not.toContain('organization');
  });
});
