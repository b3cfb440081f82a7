import { initials } from '@web/lib/initials';
import { cn } from '@web/ui/primitives/cn';

/** A safe image address for an avatar: web or data URLs only, never `javascript:`. */
function avatarSrc(avatar: string | null | undefined): string | undefined {
  if (!avatar) return undefined;
  return /^(https?:\/\/|data:image\/)/i.test(avatar) ? avatar : undefined;
}

/** Spec §9: avatars show up to 2 initials (or the person's picture, when they have one). */
export function PersonAvatar({ name, avatar, className }: { name: string; avatar?: string | null; className?: string }) {
  const src = avatarSrc(avatar);
  const base = cn('inline-flex size-7 shrink-0 items-center justify-center overflow-hidden rounded-full bg-blue-600 text-xs font-semibold text-white', className);
  if (src) return <img src={src} alt="" className={base} />;
  return (
    <span aria-hidden="true" className={base}>
      {initials(name)}
    </span>
  );
}

/** A person in a table: avatar and name, with '(you)' for the signed-in person. */
export function PersonCell({ name, email, avatar, you }: { name: string; email?: string | null; avatar?: string | null; you?: boolean }) {
  const shown = name || email || '';
  return (
    <span className="flex min-w-0 items-center gap-2">
      <PersonAvatar name={shown} avatar={avatar} />
      <span className="truncate font-medium text-slate-900">{shown}</span>
      {you ? <span className="shrink-0 text-xs text-slate-500">(you)</span> : null}
    </span>
  );
}
