import { defineCase } from '../../harness/define-case.ts';
import { expectError } from '../../harness/expect.ts';

export default defineCase({
  id: 'auth-and-isolation/authentication-precedes-state',
  clause: 'auth-before-state',
  category: 'auth-and-isolation',
  description: 'absent records and malformed bodies are 401 without a token and 403 without the role',
  async run(ctx) {
    // None of these may read state, so a STORAGE_UNAVAILABLE answer fails this clause too.
    const before = 'auth-before-state' as const;
    const absent = { instance_id: ctx.ids.instance('absent') };
    expectError(
      await ctx.anonymous.call('getInstance', { params: absent, refusedBeforeStorage: before }),
      'UNAUTHENTICATED',
      undefined,
      'read of an absent instance, no token',
    );
    const dispatcher = ctx.as({ roles: ['registry:dispatch'], tenant: ctx.ids.tenant() });
    expectError(
      await dispatcher.call('getInstance', { params: absent, refusedBeforeStorage: before }),
      'FORBIDDEN',
      undefined,
      'read of an absent instance, wrong role',
    );

    const malformed = { params: absent, rawBody: '{"id": ', refusedBeforeStorage: before };
    expectError(await ctx.anonymous.call('putInstance', malformed), 'UNAUTHENTICATED', undefined, 'malformed body, no token');
    expectError(await dispatcher.call('putInstance', malformed), 'FORBIDDEN', undefined, 'malformed body, wrong role');

    const wrongMedia = { params: absent, rawBody: 'id=x', contentType: 'text/plain', refusedBeforeStorage: before };
    expectError(await ctx.anonymous.call('putInstance', wrongMedia), 'UNAUTHENTICATED', undefined, 'text/plain body, no token');
  },
});
