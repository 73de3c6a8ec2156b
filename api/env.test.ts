import { expectTypeOf, it } from 'vitest';
import type { AppContext } from './env.ts';

// Checked by the compiler (npm run typecheck): a misspelt variable or a value of the wrong type does not compile.
it('types the context variables: their names and the types of their values', () => {
  const read = (c: AppContext) => {
    expectTypeOf(c.get('limitHeaders')).toEqualTypeOf<Record<string, string> | undefined>();
    expectTypeOf(c.get('negotiatedFormat')).toEqualTypeOf<'json' | 'csv' | undefined>();
    // @ts-expect-error: no variable of that name
    c.get('limitHeader');
    // @ts-expect-error: a policy is 'data' or 'ask'
    c.set('limitPolicy', 'bulk');
  };
  expectTypeOf(read).parameter(0).toEqualTypeOf<AppContext>();
});
