/** settings/profiles and its children (SPEC §2: profiles (create, edit/{id})). */
export const profilesPath = '/settings/profiles';
export const newProfilePath = `${profilesPath}/create`;
export const editProfilePath = (id: number) => `${profilesPath}/edit/${id}`;
