import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Profile, ProfileInput, ProfileUpdate, Settings, SettingsUpdate } from '@mailroom/protocol';
import { call, routes } from '../../api/client';
import { writeAccount } from '../account';

// Settings and profiles live in the account every screen reads (account feature): a save writes its answer there,
// so lists, the reader and compose follow at once.

/**
 * POST user/settings with the settings changed. Shown at once: `save` changes the account's settings in the same
 * event as the click (a controlled switch re-rendered before an asynchronous update would flip back for a frame),
 * puts them back if the save fails, and the answer then becomes the account's settings.
 */
export function useChangeSettings() {
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: ({ update }: { update: SettingsUpdate; before: Settings | undefined }) =>
      call(routes.changeSettings, { body: update }),
    onError: (_error, { before }) => {
      if (before) writeAccount(client, (account) => ({ ...account, settings: before }));
    },
    onSuccess: ({ settings }) => writeAccount(client, (account) => ({ ...account, settings })),
  });
  const save = (update: SettingsUpdate) => {
    let before: Settings | undefined;
    writeAccount(client, (account) => {
      before = account.settings;
      return { ...account, settings: { ...account.settings, ...update } };
    });
    mutation.mutate({ update, before });
  };
  return { save, isPending: mutation.isPending, isSuccess: mutation.isSuccess };
}

function useProfilesMutation<V>(send: (variables: V) => Promise<{ profiles: Profile[] }>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: ({ profiles }) => writeAccount(client, (account) => ({ ...account, profiles })),
  });
}

export function useCreateProfile() {
  return useProfilesMutation((profile: ProfileInput) => call(routes.createProfile, { body: profile }));
}

export function useUpdateProfile() {
  return useProfilesMutation(({ id, update }: { id: number; update: ProfileUpdate }) =>
    call(routes.updateProfile, { params: { id }, body: update }),
  );
}

export function useDeleteProfile() {
  return useProfilesMutation((id: number) => call(routes.deleteProfile, { params: { id } }));
}
