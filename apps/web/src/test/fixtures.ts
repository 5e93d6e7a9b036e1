import { defaultSettings, type AccessResponse, type Account, type Settings } from '@mailroom/protocol';

/** The signed-in member the screen tests render for. */
export const testUser: AccessResponse = {
  email: 'ann@mailroom.test',
  member_id: '123456789012',
  name: 'Ann Lee',
  info: { alias: null },
};

/** testUser's account, with settings changed where a test needs it. */
export function testAccount(settings: Partial<Settings> = {}): Account {
  return {
    email: testUser.email,
    aliases: [],
    profiles: [],
    settings: { ...defaultSettings, ...settings },
    quota: { size: 512, limit: 1024 * 1024 },
    alias_accesses: [],
  };
}
