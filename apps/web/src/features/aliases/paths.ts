/** settings/aliases and its child (SPEC §2: aliases (with create)). */
export const aliasesPath = '/settings/aliases';
export const newAliasPath = `${aliasesPath}/create`;
