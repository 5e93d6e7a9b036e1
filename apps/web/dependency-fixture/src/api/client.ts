export const client = 'client';
