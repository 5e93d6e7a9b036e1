/** Builders for the routes of SPEC §2, so links and redirects cannot drift from the route table. */
export function folderPath(
  aliasId: string | number,
  folderId: string | number,
  page: string | number = 1,
): string {
  return `/mail/folder/${aliasId}/${folderId}/${page}`;
}

export function labelPath(
  aliasId: string | number,
  labelId: string | number,
  page: string | number = 1,
): string {
  return `/mail/label/${aliasId}/${labelId}/${page}`;
}
