// Against the direction: ui must not import api.
import { client } from '../api/client';

export const button = `button for ${client}`;
