import { createContext } from 'react';
import type { QueryClient } from '@tanstack/react-query';

/**
 * What else must load again once compose has saved a message (sent, or a draft): the lists and the counters, which
 * other features own. ComposeHost takes it from the app; compose itself knows none of their query keys.
 */
export const ComposeSavedContext = createContext<(client: QueryClient) => void>(() => {});
