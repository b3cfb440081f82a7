import { func } from '../define';
import { GoStruct } from '../kinds';

/** Go's *url.URL as conv.URL / urlParse give it: its fields and the methods templates use. */
export function urlStruct(text: string): GoStruct {
  const match = /^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s.exec(text);
  const [, scheme = '', authority, path = '', query = '', fragment = ''] = match ?? [];
  let user = '';
  let host = authority ?? '';
  const at = host.lastIndexOf('@');
  if (at >= 0) [user, host] = [host.slice(0, at), host.slice(at + 1)];
  const hostname = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d*$/, '');
  const port = /:(\d*)$/.exec(host)?.[1] ?? '';
  const decode = (value: string) => {
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  };
  const render = (shownUser: string) =>
    `${scheme ? `${scheme}:` : ''}${authority !== undefined ? `//${shownUser ? `${shownUser}@` : ''}${host}` : ''}${path}${query ? `?${query}` : ''}${fragment ? `#${fragment}` : ''}`;
  const redactedUser = user.includes(':') ? `${user.slice(0, user.indexOf(':'))}:xxxxx` : user;
  return new GoStruct(
    '*url.URL',
    { Scheme: scheme.toLowerCase(), Opaque: '', Host: host, Path: decode(path), RawPath: '', RawQuery: query, Fragment: decode(fragment), ForceQuery: false },
    {
      String: func([], () => render(user)),
      Redacted: func([], () => render(redactedUser)),
      Hostname: func([], () => hostname),
      Port: func([], () => port),
      EscapedPath: func([], () => path),
      IsAbs: func([], () => scheme !== ''),
    },
  );
}
