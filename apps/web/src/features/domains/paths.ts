/** settings/domains and its children (SPEC §2: domains — redirects to the list; list with create; confirm/{id}; dkim/{id}; remove/{id}; emails/{id}), and settings/d_emails. */
export const domainsPath = '/settings/domains/list';
export const newDomainPath = `${domainsPath}/create`;
export const confirmDomainPath = (id: number) => `/settings/domains/confirm/${id}`;
export const dkimPath = (id: number) => `/settings/domains/dkim/${id}`;
export const removeDomainPath = (id: number) => `/settings/domains/remove/${id}`;
export const domainEmailsPath = (id: number) => `/settings/domains/emails/${id}`;
export const delegatedPath = '/settings/d_emails';
