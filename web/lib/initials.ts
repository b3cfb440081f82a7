import { AVATAR_MAX_INITIALS } from '@common/constants';

/**
 * Avatar initials (spec §9: at most 2): first letters of the first and last word of a name, or of the
 * part of an email before the '@'. 'Ada Lovelace' → 'AL', 'grace' → 'G', 'j.doe@example.com' → 'JD'.
 */
export function initials(name: string): string {
  const local = name.includes('@') ? (name.split('@')[0] ?? '') : name;
  const words = local.split(/[\s._-]+/u).filter((word) => word !== '');
  if (words.length === 0) return '';
  const picked = words.length === 1 ? [words[0]] : [words[0], words[words.length - 1]];
  return picked
    .map((word) => Array.from(word ?? '')[0] ?? '')
    .join('')
    .toLocaleUpperCase()
    .slice(0, AVATAR_MAX_INITIALS);
}
