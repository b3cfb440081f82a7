import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { db } from '@web/lib/db';
import { toast } from '@web/lib/toast';
import { propertySchema, type Property, type PropertyForm } from './schema';

/**
 * Every key starts with 'properties' so a change here also refreshes the shell's feature-flag query
 * (['properties', 'feature-flags']) and the sidebar follows at once.
 */
export const propertyKeys = {
  all: ['properties'] as const,
  list: () => ['properties', 'list'] as const,
};

function fail(error: { message: string } | null): void {
  if (error) throw new Error(error.message, { cause: error });
}

async function fetchProperties(): Promise<Property[]> {
  const { data, error } = await db.from('properties').select('name,value,created_at,updated_at').order('name');
  fail(error);
  return z.array(propertySchema).parse(data ?? []);
}

export function useProperties() {
  return useQuery({ queryKey: propertyKeys.list(), queryFn: fetchProperties });
}

function useInvalidate() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: propertyKeys.all });
}

/** Adds a flag; an existing name is an error (the database's unique key), never a silent overwrite. */
export function useCreateProperty() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (form: PropertyForm) => {
      const { error } = await db.from('properties').insert({ name: form.name, value: form.value });
      fail(error);
    },
    onSuccess: (_data, form) => {
      toast.success(`${form.name} created successfully`);
      return invalidate();
    },
  });
}

/** Changes a flag's value; its name is the key and cannot change (spec §5). */
export function useUpdateProperty() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (form: PropertyForm) => {
      const { error } = await db.from('properties').update({ value: form.value }).eq('name', form.name);
      fail(error);
    },
    onSuccess: (_data, form) => {
      toast.success(`${form.name} updated successfully`);
      return invalidate();
    },
  });
}

export function useDeleteProperty() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (name: string) => {
      const { error } = await db.from('properties').delete().eq('name', name);
      fail(error);
    },
    onSuccess: (_data, name) => {
      toast.success(`${name} deleted successfully`);
      return invalidate();
    },
  });
}
