import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { CONNECTION_TYPES } from '@common/connections';
import { resourceKeys } from '@web/features/settings/resources/queries';
import { userKeys } from '@web/features/users/queries';
import { db } from '@web/lib/db';
import { personLabel, personSchema, type Person } from '@web/lib/people';
import { toast } from '@web/lib/toast';
import { isNotificationType, teamChannels, withChannels, type Channel, type NotificationConnection } from './channels';


const memberSchema = z.object({ team_id: z.string(), person_id: z.string(), created_at: z.string(), person: personSchema.nullable() });
export type TeamMember = z.infer<typeof memberSchema> & { person: Person };

export const teamMemberKeys = {
  all: ['team_members'] as const,
  list: (teamId: string) => ['team_members', teamId] as const,
};

function fail(error: { message: string } | null): void {
  if (error) throw new Error(error.message, { cause: error });
}

export function useTeamMembers(teamId: string) {
  return useQuery({
    queryKey: teamMemberKeys.list(teamId),
    queryFn: async (): Promise<TeamMember[]> => {
      const { data, error } = await db
        .from('team_members')
        .select('team_id,person_id,created_at,person:people(id,name,email,avatar)')
        .eq('team_id', teamId)
        .order('created_at', { ascending: false });
      fail(error);
      // A deleted person's membership goes with their account; a row without one is not shown.
      return z
        .array(memberSchema)
        .parse(data ?? [])
        .flatMap((member) => (member.person ? [{ ...member, person: member.person }] : []));
    },
  });
}

function useInvalidateTeam(teamId: string) {
  const client = useQueryClient();
  // Member counts (the Teams list) and the Users page's teams column change with the members.
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: teamMemberKeys.list(teamId) }),
      client.invalidateQueries({ queryKey: resourceKeys.all('teams') }),
      client.invalidateQueries({ queryKey: userKeys.all }),
    ]);
}

/** Adds several people in one request; failures toast the server's message (spec §8). */
export function useAddMembers(teamId: string) {
  const invalidate = useInvalidateTeam(teamId);
  return useMutation({
    mutationFn: async (people: readonly Person[]) => {
      const { error } = await db.from('team_members').insert(people.map((person) => ({ team_id: teamId, person_id: person.id })));
      fail(error);
    },
    onSuccess: (_data, people) => {
      // Spec §8: 'added to the team successfully', after the names.
      toast.success(`${people.map(personLabel).join(', ')} added to the team successfully`);
      return invalidate();
    },
  });
}

export function useRemoveMember(teamId: string) {
  const invalidate = useInvalidateTeam(teamId);
  return useMutation({
    mutationFn: async (person: Person) => {
      const { error } = await db.from('team_members').delete().eq('team_id', teamId).eq('person_id', person.id);
      fail(error);
    },
    onSuccess: (_data, person) => {
      toast.success(`${personLabel(person)} removed from team successfully`);
      return invalidate();
    },
  });
}

const notificationConnectionSchema = z.object({ id: z.string(), name: z.string(), namespace: z.string(), type: z.string() });

/** The connections a team's channel may name: those of a notification type (common/connections.ts). */
export function useNotificationConnections() {
  return useQuery({
    queryKey: ['connections', 'notification-targets'] as const,
    queryFn: async (): Promise<NotificationConnection[]> => {
      const types = CONNECTION_TYPES.filter((def) => isNotificationType(def.type)).map((def) => def.type);
      const { data, error } = await db.from('connections').select('id,name,namespace,type').in('type', types).order('name').limit(500);
      fail(error);
      return z.array(notificationConnectionSchema).parse(data ?? []);
    },
  });
}

/**
 * Changes a team's channels (spec.notifications). The spec is read again first and only its
 * `notifications` replaced, so the other keys, and changes made meanwhile elsewhere, stay as they are.
 */
export function useSaveTeamChannels(teamId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (change: (channels: Channel[]) => Channel[]) => {
      const current = await db.from('teams').select('spec').eq('id', teamId).maybeSingle();
      fail(current.error);
      const spec: unknown = current.data && typeof current.data === 'object' ? Reflect.get(current.data, 'spec') : undefined;
      const { error } = await db
        .from('teams')
        .update({ spec: withChannels(spec, change(teamChannels(spec))) })
        .eq('id', teamId);
      fail(error);
    },
    onSuccess: () => {
      // Spec §8: '{resource} updated successfully'.
      toast.success('Team updated successfully');
      return client.invalidateQueries({ queryKey: resourceKeys.all('teams') });
    },
  });
}
