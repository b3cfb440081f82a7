/** One specific resource a request acts on, for permission rows that name a resource or a selector. */
export interface AccessTarget {
  /** 'view': a view (its rows, /api/view/:id and its table view_<namespace>_<name>), selected by `views`. */
  kind: 'config' | 'component' | 'canary' | 'playbook' | 'connection' | 'view';
  id: string;
  tags?: Record<string, string>;
  agent?: string;
  /** What object selectors match on besides the id; a selector field the target does not carry cannot allow. */
  name?: string;
  namespace?: string;
  type?: string;
  labels?: Record<string, string>;
}
