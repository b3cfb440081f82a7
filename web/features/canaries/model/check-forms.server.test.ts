import { describe, expect, it } from 'vitest';
import { CHECK_TYPES } from '../../../../server/features/health/registry';
import { CHECK_FORMS } from './check-forms';

/**
 * The forms and the server must name fields alike: a form field the server does not read would be saved
 * and then reported as unsupported. (Types without a server implementation yet keep their forms for when
 * they arrive; the type picker only offers what GET /api/canary/about lists.)
 */
describe('check forms against the server check types', () => {
  for (const type of CHECK_TYPES) {
    const form = CHECK_FORMS[type.type];
    if (!form) continue;
    it(`${type.type}: every form field is a field the server reads`, () => {
      expect(form.map((field) => field.name).filter((name) => !type.fields.includes(name))).toEqual([]);
    });
  }

  it('has a form for every type the server runs', () => {
    expect(CHECK_TYPES.map((type) => type.type).filter((type) => !Object.hasOwn(CHECK_FORMS, type))).toEqual([]);
  });
});
