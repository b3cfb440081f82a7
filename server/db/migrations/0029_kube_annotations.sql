-- The Kubernetes-style API (issue 24, docs/KUBECTL.md): metadata.annotations of objects written through it,
-- above all kubectl.kubernetes.io/last-applied-configuration, which `kubectl apply` reads to compute its
-- three-way patch (so a field removed from a file is removed). One row per resource, whatever its table
-- (ids are UUIDs, unique across tables); secret values are blanked before they are stored here. The row is
-- deleted with the resource through the API; a row left by a delete elsewhere names an id nothing uses.
CREATE TABLE kube_annotations (
  resource_id uuid PRIMARY KEY,
  kind text NOT NULL,
  annotations jsonb NOT NULL DEFAULT '{}'::jsonb,
  updated_at timestamptz NOT NULL DEFAULT now()
);
