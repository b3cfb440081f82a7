import { describe, expect, it } from 'vitest';
import { defaultNodes, groupsOf, initialValues, submitBody } from './nodes';
import { input, loginFlow, secondFactorFlow } from './test-flows';

describe('flow nodes', () => {
  it('lists the method groups in order; the default group is not a form of its own', () => {
    expect(groupsOf(loginFlow.ui.nodes)).toEqual(['password', 'passkey']);
    expect(groupsOf(secondFactorFlow.ui.nodes)).toEqual(['totp', 'lookup_secret']);
    expect(groupsOf([input('default', 'csrf_token', 'hidden', { value: 'x' })])).toEqual(['default']);
  });

  it('separates the hidden default inputs every form posts from the visible ones', () => {
    const { hidden, visible } = defaultNodes(loginFlow.ui.nodes);
    expect(hidden.map((node) => node.attributes.name)).toEqual(['csrf_token']);
    expect(visible.map((node) => (node.attributes.node_type === 'input' ? node.attributes.name : ''))).toEqual(['identifier']);
  });

  it("posts the default inputs, the form's own inputs and the clicked button, nothing of other forms", () => {
    const values = { ...initialValues(secondFactorFlow.ui.nodes), totp_code: '123456', lookup_secret: 'abcd-efgh' };
    expect(submitBody(secondFactorFlow.ui.nodes, 'lookup_secret', values, { method: 'lookup_secret' })).toEqual({
      csrf_token: 'csrf-123',
      lookup_secret: 'abcd-efgh',
      method: 'lookup_secret',
    });
  });

  it('nests dotted names as Kratos reads JSON bodies, and ignores prototype keys', () => {
    const nodes = [
      input('default', 'csrf_token', 'hidden', { value: 'c' }),
      input('profile', 'traits.email', 'email', { value: 'a@example.com' }),
      input('profile', 'traits.name.first', 'text', { value: 'Ada' }),
      input('profile', 'traits.name.last', 'text'),
      input('profile', '__proto__.polluted', 'text', { value: 'yes' }),
    ];
    const body = submitBody(nodes, 'profile', initialValues(nodes), { method: 'profile' });
    expect(body).toEqual({ csrf_token: 'c', traits: { email: 'a@example.com', name: { first: 'Ada', last: '' } }, method: 'profile' });
    expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false);
  });

  it('keeps submit values as the server sent them and sends checkboxes as booleans', () => {
    const nodes = [input('lookup_secret', 'lookup_secret_regenerate', 'submit', { value: true }), input('profile', 'consent', 'checkbox', { value: false })];
    expect(submitBody(nodes, 'lookup_secret', {}, { lookup_secret_regenerate: true })).toEqual({ lookup_secret_regenerate: true });
    expect(submitBody(nodes, 'profile', { consent: true })).toEqual({ consent: true });
  });
});
