import { describe, expect, it } from 'vitest';
import { ExpressionError } from './errors';
import { interpolate } from './interpolate';

describe('$(…) interpolation', () => {
  const variables = { url: 'https://example.com/a', user: 'hello', pass: 'wor:ld', outputs: { first: { json: { id: 42, ok: true } } }, empty: '' };

  it('fills $(.name) and $(name), and walks into values', () => {
    expect(interpolate('url', '$(.url)', variables)).toBe('https://example.com/a');
    expect(interpolate('url', '$(url)', variables)).toBe('https://example.com/a');
    expect(interpolate('url', 'https://$(.user):$(.pass)@host/x', variables)).toBe('https://hello:wor:ld@host/x');
    expect(interpolate('url', 'http://h/items/$(outputs.first.json.id)?ok=$(.outputs.first.json.ok)', variables)).toBe('http://h/items/42?ok=true');
    expect(interpolate('url', 'a$( .user )b$(.empty)c', variables)).toBe('ahellobc');
  });

  it('leaves text without actions alone, dollars included', () => {
    expect(interpolate('body', 'costs $5 (or $6)', variables)).toBe('costs $5 (or $6)');
    expect(interpolate('body', '{{.user}}', variables)).toBe('{{.user}}');
  });

  it('prints the whole set of values as Go prints a map', () => {
    expect(interpolate('body', '$(.)', { b: 2, a: 'x', list: [1, 'y'] })).toBe('map[a:x b:2 list:[1 y]]');
  });

  it('writes the delimiters themselves through string literals, and honours trim markers', () => {
    expect(interpolate('body', 'echo $("$(")date)', variables)).toBe('echo $(date)');
    expect(interpolate('body', '$(`a)b`)', variables)).toBe('a)b');
    expect(interpolate('body', 'x   $(- .user -)   y', variables)).toBe('xhelloy');
  });

  it('names a missing variable or field, an unclosed action and an unsupported one', () => {
    expect(() => interpolate('url', '$(.nope)', variables)).toThrow(ExpressionError);
    expect(() => interpolate('url', 'http://$(.nope)/', variables)).toThrow('url "http://$(.nope)/": $(.nope): there is no variable named "nope" (there are: empty, outputs, pass, url, user)');
    expect(() => interpolate('url', '$(outputs.first.json.missing)', variables)).toThrow('outputs.first.json has no field "missing"');
    expect(() => interpolate('url', '$(.user.name)', variables)).toThrow('user has no field "name"');
    expect(() => interpolate('url', 'http://$(.user', variables)).toThrow('unclosed action');
    expect(() => interpolate('url', '$(.user | upper)', variables)).toThrow('$(.user | upper) is not supported');
    expect(() => interpolate('url', '$(printf "%s" .user)', variables)).toThrow('is not supported');
  });
});
