import { isRecord } from '@web/features/canaries/model/document';

/** The people and teams a playbook's spec.approval.approvers names (ids, emails or names). */
export interface Approvers {
  people: string[];
  teams: string[];
}

function texts(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string' && item.trim() !== '').map((item) => item.trim()) : [];
}

/** Reads spec.approval.approvers; none when the spec asks for no approval. */
export function approversOf(spec: unknown): Approvers {
  const approval = isRecord(spec) ? spec.approval : undefined;
  const approvers = isRecord(approval) ? approval.approvers : undefined;
  if (!isRecord(approvers)) return { people: [], teams: [] };
  return { people: texts(approvers.people), teams: texts(approvers.teams) };
}

/**
 * Whether the person may approve, as the server judges it (a person named by id, email or name, any
 * case): true when named, false when not named and no team is (the console then hides Approve), and
 * undefined when teams are named, since team membership is the server's to check.
 */
export function isApprover(approvers: Approvers, person: { id: string; email?: string | undefined; name?: string | undefined }): boolean | undefined {
  const own = [person.id, person.email, person.name].filter((value): value is string => Boolean(value)).map((value) => value.toLowerCase());
  if (approvers.people.some((name) => own.includes(name.toLowerCase()))) return true;
  return approvers.teams.length > 0 ? undefined : false;
}
